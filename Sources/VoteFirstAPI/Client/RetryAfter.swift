import Foundation

/// Reads an HTTP `Retry-After` field (RFC 9110 §10.2.3): the seconds a client should wait
/// before sending a refused request (a 429 or a 503) again.
///
/// The field is either a number of seconds (`Retry-After: 120`) or an HTTP date
/// (`Retry-After: Fri, 31 Dec 1999 23:59:59 GMT`). Both are read; a date counts from `now`, and
/// one in the past means "retry now" (0). Dates are read in the three forms RFC 9110 asks a
/// recipient to accept: the IMF-fixdate above, the obsolete RFC 850 form
/// (`Friday, 31-Dec-99 23:59:59 GMT`) and C's `asctime` form (`Fri Dec 31 23:59:59 1999`).
///
///     let wait = RetryAfter.seconds(response.value(forHTTPHeaderField: "Retry-After"))
///     // nil: no field, or one that is neither form; take your own default.
///
/// The answer is not capped: each caller bounds it as it needs (a field of a thousand digits
/// reads as a very large, finite number, never as garbage).
public enum RetryAfter {
  /// The seconds `field` asks a client to wait, counted from `now`; nil when there is no field
  /// or it is neither a number of seconds nor an HTTP date (then the caller's own default
  /// applies).
  ///
  /// - Parameters:
  ///   - field: the `Retry-After` field's value, surrounding spaces allowed.
  ///   - now: the time a date counts from; the current time by default.
  /// - Returns: 0 or more whole seconds: a number as given, a date's distance from `now` rounded
  ///   up (0 when the date is past), or nil.
  public static func seconds(_ field: String?, now: Date = Date()) -> TimeInterval? {
    guard let field else { return nil }
    let text = field.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return nil }
    if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
      // Finite however many digits: a caller may add it to a date.
      return min(TimeInterval(text) ?? .greatestFiniteMagnitude, .greatestFiniteMagnitude)
    }
    guard let date = date(text, now: now) else { return nil }
    return max(0, date.timeIntervalSince(now).rounded(.up))
  }

  /// ``seconds(_:now:)`` as a whole number of seconds, at most `limit` (so a field of many
  /// digits still converts).
  ///
  /// - Parameters:
  ///   - field: the `Retry-After` field's value.
  ///   - limit: the largest answer; a longer wait reads as this.
  ///   - now: the time a date counts from; the current time by default.
  /// - Returns: the whole seconds from 0 to `limit`, or nil as ``seconds(_:now:)``.
  public static func wholeSeconds(
    _ field: String?, limit: Int = Int(Int32.max), now: Date = Date()
  ) -> Int? {
    guard let seconds = seconds(field, now: now) else { return nil }
    return seconds >= Double(limit) ? limit : max(0, Int(seconds))
  }

  /// The HTTP date `text` names, in any of the three forms; nil for anything else.
  static func date(_ text: String, now: Date) -> Date? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    var day: Int
    var month: Int
    var year: Int
    var time: String
    if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" {
      // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
      guard weekdays.contains(String(parts[0].dropLast())), parts[1].count == 2,
        let d = number(parts[1]), let m = months.firstIndex(of: parts[2]), parts[3].count == 4,
        let y = number(parts[3])
      else { return nil }
      (day, month, year, time) = (d, m + 1, y, parts[4])
    } else if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
      // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
      let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      guard longWeekdays.contains(String(parts[0].dropLast())), date.count == 3,
        date[0].count == 2, let d = number(date[0]), let m = months.firstIndex(of: date[1]),
        date[2].count == 2, let yy = number(date[2])
      else { return nil }
      // RFC 9110: a year more than 50 years ahead is the most recent past one of its digits.
      let thisYear =
        Calendar(identifier: .gregorian).dateComponents(
          in: TimeZone(identifier: "GMT")!, from: now
        ).year ?? 2000
      var y = thisYear - thisYear % 100 + yy
      if y > thisYear + 50 { y -= 100 }
      (day, month, year, time) = (d, m + 1, y, parts[2])
    } else if parts.count == 5 {
      // asctime: Sun Nov  6 08:49:37 1994
      guard weekdays.contains(parts[0]), let m = months.firstIndex(of: parts[1]),
        (1...2).contains(parts[2].count), let d = number(parts[2]), parts[4].count == 4,
        let y = number(parts[4])
      else { return nil }
      (day, month, year, time) = (d, m + 1, y, parts[3])
    } else {
      return nil
    }
    let clock = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = number(clock[0]),
      let minute = number(clock[1]), let second = number(clock[2]), hour < 24, minute < 60,
      second <= 60, (1...daysIn(month, year)).contains(day)
    else { return nil }
    let days = daysFromEpoch(year: year, month: month, day: day)
    let total = ((days * 24 + hour) * 60 + minute) * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(total))
  }

  private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let longWeekdays = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
  ]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `text` as a number when it is only ASCII digits (at most 4).
  private static func number(_ text: String) -> Int? {
    guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return nil }
    return Int(text)
  }

  /// The days of `month` (1–12) in `year`.
  private static func daysIn(_ month: Int, _ year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
  private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
