import Foundation
import Testing
import VoteStore

@testable import CounterService

/// A write drops the project's model and the next read loads it: a run of writes with no read
/// between them loads nothing (loading after every write made 2,000 stages created one by
/// one cost 28 s, each write paying for the whole project).
@Suite struct BoardViewLoadTests {
  /// The real SQLite board store, counting the reads made through it (a test instrument:
  /// every call is the real store's).
  final class CountingBoardStore: BoardStore, Sendable {
    let inner: SQLiteBoardStore
    let reads = Locked(0)

    init(_ inner: SQLiteBoardStore) { self.inner = inner }

    func read<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
      reads.withLock { $0 += 1 }
      return try await inner.read(body)
    }

    func write<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
      try await inner.write(body)
    }

    func close() async { await inner.close() }

    var seesEveryWrite: Bool { inner.seesEveryWrite }

    func addWriteObserver(_ observer: @escaping @Sendable (BoardWriteNotice) async -> Void) {
      inner.addWriteObserver(observer)
    }
  }

  @Test func aRunOfWritesLoadsNothingUntilTheNextRead() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      let counting = CountingBoardStore(h.boards)
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
