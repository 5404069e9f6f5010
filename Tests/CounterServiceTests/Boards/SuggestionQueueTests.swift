import Foundation
import Testing
import VoteFirstAPI

@testable import CounterService

/// Anyone may send a suggestion, so the queue an admin reviews is bounded: at most
/// ``VoteFirstLimits/maxPendingSuggestions`` wait at once, and the admin's list of them is
/// read in pages when it asks for a `limit`.
@Suite struct SuggestionQueueTests {
  /// Stores `count` pending suggestions straight into the project's table (as a long queue
  /// would have left them), created at 1, 2, 3… ms.
  static func fill(_ harness: BoardHarness, _ count: Int, firstID: Int = 1) async throws {
    try await harness.boards.write { tables in
      for id in firstID..<(firstID + count) {
        let suggestion = Suggestion(
          id: id, title: "Idea \(id)", description: "Please", state: .pending,
          createdAt: Date(timeIntervalSince1970: Double(id) / 1000))
        try tables.put(
          .suggestion, try VoteFirstContext.row(suggestion, project: BoardHarness.project))
      }
      try tables.reserveID(BoardHarness.project, "suggestion", atLeast: Int64(firstID + count - 1))
    }
  }

  static func suggest(_ harness: BoardHarness) async -> Answer {
    await harness.call(
      .post, "/api/v1/\(BoardHarness.project)/suggestions",
      json: #"{"title":"Dark mode","description":"Please"}"#)
  }

  @Test func aFullQueueRefusesSuggestionsUntilOneIsDecided() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/settings", #"{"name":"Demo"}"#)
      try await Self.fill(harness, VoteFirstLimits.maxPendingSuggestions - 1)
      #expect(await Self.suggest(harness).status == 202)

      let refused = await Self.suggest(harness)
      #expect(refused.status == 429, "\(refused.body)")
      let error = try #require(refused.object["error"] as? [String: Any], "\(refused.body)")
      #expect(error["code"] as? String == "suggestions_full")
      // Not a client over its limit: the connection stays open.
      #expect(refused.headers["Connection"] == nil)
      #expect(
        error["message"] as? String
          == "project demo-app has 1000 suggestions waiting for review; "
          + "try again once some are decided")
      // Nothing was stored for the refused one.
      let pending = await harness.admin(.get, "/suggestions?state=pending")
      #expect(pending.list("suggestions").count == VoteFirstLimits.maxPendingSuggestions)

      // Deciding one (either way) makes room for one more.
      await harness.admin(.post, "/suggestions/1/reject")
      #expect(await Self.suggest(harness).status == 202)
      #expect(await Self.suggest(harness).status == 429)
      await harness.admin(.post, "/suggestions/2/approve")
      #expect(await Self.suggest(harness).status == 202)
    }
  }

  @Test func theListIsReadInPagesOldestFirst() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/settings", #"{"name":"Demo"}"#)
      try await Self.fill(harness, 7)
      await harness.admin(.post, "/suggestions/2/reject")
      await harness.admin(.post, "/suggestions/5/reject")

      func ids(_ answer: Answer) -> [Int] {
        answer.list("suggestions").compactMap { $0["id"] as? Int }
      }
      func pages(_ query: String) async -> [[Int]] {
        var pages: [[Int]] = []
        var cursor: String?
        repeat {
          let answer = await harness.admin(
            .get, "/suggestions?" + query + (cursor.map { "&cursor=" + $0 } ?? ""))
          pages.append(ids(answer))
          cursor = answer.object["next"] as? String
        } while cursor != nil && pages.count < 10
        return pages
      }
      #expect(await pages("limit=3") == [[1, 2, 3], [4, 5, 6], [7]])
      #expect(await pages("limit=7") == [[1, 2, 3, 4, 5, 6, 7]])
      #expect(await pages("state=pending&limit=2") == [[1, 3], [4, 6], [7]])
      #expect(await pages("state=rejected&limit=1") == [[2], [5]])

      // Without a limit: every one, and no `next`.
      let all = await harness.admin(.get, "/suggestions")
      #expect(ids(all) == [1, 2, 3, 4, 5, 6, 7])
      #expect(all.object.keys.sorted() == ["suggestions"])
    }
  }

  @Test(arguments: [
    ("limit=0", 400, "invalid_parameter"), ("limit=101", 400, "invalid_parameter"),
    ("limit=x", 400, "invalid_parameter"), ("limit=2&cursor=abc", 400, "invalid_cursor"),
    ("limit=2&cursor=5.0", 400, "invalid_cursor"), ("limit=2&cursor=1.2.3", 400, "invalid_cursor"),
    ("cursor=1.1", 400, "invalid_cursor"),
  ])
  func aBadLimitOrCursorIsRefused(query: String, status: Int, code: String) async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/settings", #"{"name":"Demo"}"#)
      let answer = await harness.call(
        .get, "/api/v1/\(BoardHarness.project)/suggestions?" + query, admin: true)
      #expect(answer.status == status, "\(answer.body)")
      let error = answer.object["error"] as? [String: Any]
      #expect(error?["code"] as? String == code, "\(answer.body)")
    }
  }
}
