import Foundation
import Testing
import VoteStore

@testable import CounterService

/// A write drops the project's model and the next read loads it: a run of writes with no read
/// between them loads nothing (loading after every write made 2,000 stages created one by
/// one cost 28 s, each write paying for the whole project).
@Suite struct BoardViewLoadTests {
  @Test func aRunOfWritesLoadsNothingUntilTheNextRead() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      // The race tests' instrument, its gate never armed: only its count of reads is used.
      let counting = BoardViewRaceTests.GatedBoardStore(h.boards)
      let view = BoardView(boards: counting)
      #expect(try await view.model(BoardHarness.project)?.items.count == 2)
      #expect(counting.reads.withLock { $0 } == 1)

      for index in 1...5 {
        await h.admin(.post, "/stages", #"{"name":"Stage \#(index)","position":\#(index)}"#)
        #expect(view.cached(BoardHarness.project)?.items.count == nil, "the write dropped it")
      }
      await h.admin(.put, "/features/ref/three", #"{"title":"Three","stage":6}"#)
      #expect(counting.reads.withLock { $0 } == 1, "no write loaded the project")

      // The next read loads once and sees every write; reads after it load nothing.
      let model = try #require(try await view.model(BoardHarness.project))
      #expect(model.project.stages.map(\.name).suffix(5) == (1...5).map { "Stage \($0)" })
      #expect(model.items.map(\.content.title) == ["One", "Two", "Three"])
      _ = try await view.model(BoardHarness.project)
      #expect(counting.reads.withLock { $0 } == 2)
    }
  }
}
