import Foundation
import Testing
import VoteFirstAPI

/// `RetryAfter`: the `Retry-After` field as seconds or as an HTTP date (RFC 9110 §10.2.3).
@Suite struct RetryAfterTests {
  /// Fri, 31 Dec 1999 23:59:00 GMT.
  static let now = Date(timeIntervalSince1970: 946_684_740)

  @Test func secondsAreReadAsGiven() {
    #expect(RetryAfter.seconds("120", now: Self.now) == 120)
    #expect(RetryAfter.seconds(" 0 ", now: Self.now) == 0)
    #expect(RetryAfter.seconds("99999999999999999999999", now: Self.now) == 1e23)
    let endless = String(repeating: "9", count: 1000)
    #expect(RetryAfter.seconds(endless, now: Self.now) == .greatestFiniteMagnitude)
    #expect(RetryAfter.wholeSeconds(endless, now: Self.now) == Int(Int32.max))
    #expect(RetryAfter.wholeSeconds("99999999999999999999999", now: Self.now) == Int(Int32.max))
    #expect(RetryAfter.wholeSeconds("90", limit: 60, now: Self.now) == 60)
  }

  @Test func anHTTPDateCountsFromNow() {
    let dates = [
      "Fri, 31 Dec 1999 23:59:59 GMT", "Friday, 31-Dec-99 23:59:59 GMT",
      "Fri Dec 31 23:59:59 1999", "  Fri, 31 Dec 1999 23:59:59 GMT ",
    ]
    for date in dates {
      #expect(RetryAfter.seconds(date, now: Self.now) == 59, "\(date)")
      #expect(RetryAfter.wholeSeconds(date, now: Self.now) == 59, "\(date)")
    }
    // A date in the next year, a leap day, and the rest of a second rounded up.
    #expect(RetryAfter.seconds("Sat, 01 Jan 2000 00:01:00 GMT", now: Self.now) == 120)
    let leap = Date(timeIntervalSince1970: 951_782_400)  // Tue, 29 Feb 2000 00:00:00 GMT
    #expect(RetryAfter.seconds("Tue Feb 29 00:00:10 2000", now: leap) == 10)
    #expect(RetryAfter.seconds("Tue, 29 Feb 2000 00:00:10 GMT", now: leap - 0.5) == 11)
  }

  @Test func aPastDateMeansNow() {
    #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT", now: Self.now + 1e9) == 0)
    #expect(RetryAfter.seconds("Fri, 31 Dec 1999 23:58:00 GMT", now: Self.now) == 0)
    #expect(RetryAfter.wholeSeconds("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now) == 0)
  }

  @Test func anythingElseIsNoAnswer() {
    let garbage: [String?] = [
      nil, "", "  ", "soon", "-5", "+5", "1.5", "0x10", "5 s", "Fri, 31 Dec 1999 23:59:59 UTC",
      "Fri, 31 Dec 1999 23:59:59", "Fri, 32 Dec 1999 23:59:59 GMT",
      "Fri, 29 Feb 1999 23:59:59 GMT", "Fri, 31 Foo 1999 23:59:59 GMT",
      "Fri, 31 Dec 1999 24:00:00 GMT", "Fri, 31 Dec 1999 23:5:59 GMT",
      "Xyz, 31 Dec 1999 23:59:59 GMT", "Fri, 31 Dec 99 23:59:59 GMT",
      "Fri Dec 31 23:59:59 99", "١٢٠",
    ]
    for field in garbage {
      #expect(RetryAfter.seconds(field, now: Self.now) == nil, "\(String(describing: field))")
      #expect(RetryAfter.wholeSeconds(field, now: Self.now) == nil)
    }
  }
}
