import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// A board body with a number the field cannot take (1.5 or 1e20 for an integer): Foundation's
/// decoder calls that "not valid JSON" without a place; the answer names the place instead.
@Suite struct BodyNumberTests {
  @Test func aNumberThatIsNoWholeNumberIsNamedWithItsPlace() async throws {
    try await BoardHarness.with { board in
      await board.seed()
      for (path, method, json, field) in [
        ("/features/1/imported-votes", HTTPMethod.put, #"{"count":1.5}"#, "count"),
        ("/features/1/imported-votes", .put, #"{"count":1e20}"#, "count"),
        ("/features/1/imported-votes", .put, #"{"count":18446744073709551616}"#, "count"),
        ("/features/ref/r3", .put, #"{"title":"T","stage":1.5}"#, "stage"),
        (
          "/features/batch", .post,
          #"{"features":[{"ref":"a","title":"A"},{"ref":"b","title":"B","comments":2.5}]}"#,
          "features[1].comments"
        ),
      ] {
        let answer = await board.call(
          method, "/api/v1/\(BoardHarness.project)" + path, json: json, admin: true)
        #expect(answer.status == 400, "\(json): \(answer.body)")
        #expect(answer.body.contains(#""code":"invalid_json""#), "\(answer.body)")
        #expect(answer.body.contains(#""field":"\#(field)""#), "\(json): \(answer.body)")
        #expect(answer.body.contains("is not a whole number that fits"), "\(answer.body)")
      }
      // What decodes still does: 2.0 is 2.
      let two = await board.admin(.put, "/features/1/imported-votes", #"{"count":2.0}"#)
      #expect(two.body.contains(#""votes":2"#), "\(two.body)")
      // A body that is not JSON at all still says so.
      let broken = await board.call(
        .put, "/api/v1/\(BoardHarness.project)/features/1/imported-votes", json: #"{"count":"#,
        admin: true)
      #expect(broken.status == 400)
      #expect(broken.body.contains("the body is not JSON"), "\(broken.body)")
    }
  }

  @Test func aDateThatIsNoDateIsNamedWithItsPlace() async throws {
    try await BoardHarness.with { board in
      await board.seed()
      for date in ["2026-13-45T00:00:00Z", "yesterday", "2026-11-01"] {
        let answer = await board.call(
          .post, "/api/v1/\(BoardHarness.project)/releases",
          json: #"{"title":"2.0","date":"\#(date)"}"#, admin: true)
        #expect(answer.status == 400, "\(date): \(answer.body)")
        let error = try #require(answer.object["error"] as? [String: Any], "\(answer.body)")
        #expect(error["code"] as? String == "invalid_json")
        #expect(error["field"] as? String == "date")
        #expect(
          error["message"] as? String
            == "date: expected a date written 2026-11-30T00:00:00Z, found \"\(date)\"")
      }
      let good = await board.admin(
        .post, "/releases", #"{"title":"2.0","date":"2026-11-30T08:00:00+02:00"}"#)
      #expect(good.body.contains(#""date":"2026-11-30T06:00:00Z""#), "\(good.body)")
    }
  }
}
