import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// A cursor is the reader's to send back, so it is input: whatever moment a `trending` cursor
/// names, the listing computes its scores without trapping.
@Suite struct CursorArithmeticTests {
  /// The base64url form of a cursor's JSON.
  static func cursor(_ json: String) -> String {
    Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  /// Bug: `at` − `createdAt` in Int64 overflowed for a cursor naming a moment near
  /// Int64.min, and the overflow trap ended `roadmapctl serve`: one reader's GET (of the API
  /// or of the web board's "More features" link) took the whole server down.
  @Test(arguments: [true, false])
  func aTrendingCursorFromAnyMomentIsAnsweredNotATrap(memoryCache: Bool) async throws {
    try await BoardHarness.with(memoryCache: memoryCache) { harness in
      await harness.admin(.put, "/features/ref/one", #"{"title":"One"}"#)
      await harness.admin(.put, "/features/ref/two", #"{"title":"Two"}"#)
      for at in ["-9223372036854775808", "9223372036854775807"] {
        let cursor = Self.cursor(#"{"order":"trending","at":\#(at),"key":1,"id":1}"#)
        let answer = await harness.get("/features?order=trending&cursor=\(cursor)")
        #expect(answer.status == 200, "\(at): \(answer.body)")
        let page = await harness.call(.get, "/b/demo-app?order=trending&cursor=\(cursor)")
        #expect(page.status == 200, "\(at): \(page.body.prefix(300))")
      }
    }
  }
}
