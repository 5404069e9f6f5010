import Foundation
import Testing
import VoteFirstAPI

@testable import CounterService

/// `q` of `GET …/features` is at most ``VoteFirstLimits/maxSearch`` characters (Unicode
/// scalars, as written, before lower-casing): a longer one is a 400 naming `q`, not a scan
/// whose cost grows with its length.
@Suite struct SearchLimitTests {
  @Test func aSearchOfTheLongestLengthIsAnsweredALongerOneIsRefused() async throws {
    try await BoardHarness.with { try await Self.check($0) }
  }

  static func check(_ harness: BoardHarness) async throws {
    await harness.seed()
    let longest = String(repeating: "é", count: VoteFirstLimits.maxSearch)
    let encoded = { (text: String) in
      text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
    let answered = await harness.get("/features?q=" + encoded(longest))
    #expect(answered.status == 200, "\(answered.body)")
    #expect((answered.object["features"] as? [Any])?.isEmpty == true)

    let refused = await harness.get("/features?q=" + encoded(longest + "e"))
    #expect(refused.status == 400)
    let error = try #require(refused.object["error"] as? [String: Any], "\(refused.body)")
    #expect(error["field"] as? String == "q")
    #expect(error["message"] as? String == "q is at most 200 characters")

    // A page size outside 1–100 is refused the same way, naming `limit`.
    for size in ["0", "101", "x"] {
      let page = await harness.get("/features?limit=" + size)
      #expect(page.status == 400)
      let pageError = page.object["error"] as? [String: Any]
      #expect(pageError?["field"] as? String == "limit")
      #expect(pageError?["message"] as? String == "limit is a whole number from 1 to 100")
    }

    // A search that finds something still does, across the title's case.
    let found = await harness.get("/features?q=TW")
    #expect(found.status == 200)
    #expect(found.titles == ["Two"])
  }
}
