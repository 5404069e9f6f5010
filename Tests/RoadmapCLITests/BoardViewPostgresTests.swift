import Foundation
import Testing
import VoteFirstAPI

@testable import CounterService
@testable import VoteStore

/// The board view is off on PostgreSQL (other instances write too): two `roadmapctl serve`
/// instances on one database read each other's board writes at once, each read made right
/// after the other instance acknowledged the write, and after a read of the same data on the
/// reading instance (so a view kept there would hold the older state).
@Suite struct BoardViewPostgresTests {
  @Test func theServiceKeepsNoBoardViewOnPostgres() async throws {
    let url = try await ServePostgres.shared.newDatabase()
    let store = try PostgresVoteStore(connectionString: url, poolSize: 2)
    let boards = try PostgresBoardStore(connectionString: url, poolSize: 2)
    #expect(!boards.seesEveryWrite)
    let service = CounterService(store: store, boards: boards)
    #expect(service.voteFirst?.context.view == nil)
    await boards.close()
    await store.close()

    // On SQLite, only beside a vote store that holds its file (as `serve` opens it).
    for memoryCache in [true, false] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let sqlite = try SQLiteVoteStore(
        directory: directory.url, options: .init(memoryCache: memoryCache))
      let local = try SQLiteBoardStore(sharing: sqlite)
      #expect(local.seesEveryWrite == memoryCache)
      #expect(
        (CounterService(store: sqlite, boards: local).voteFirst?.context.view != nil)
          == memoryCache)
      await local.close()
      await sqlite.close()
    }
  }

  @Test func twoInstancesReadEachOthersBoardWritesAtOnce() async throws {
    try await ServePostgresRaceTests.withTwoInstances { a, b in try await Self.exchange(a, b) }
  }

  /// Writes through one instance and reads through the other, in turns.
  static func exchange(_ a: VoteFirstServer, _ b: VoteFirstServer) async throws {
    _ = try await a.admin().upsertFeature(
      ref: "one", FeatureUpsert(content: FeatureContent(title: "One")))
    for round in 1...6 {
      let (writer, reader) = round % 2 == 1 ? (a, b) : (b, a)
      // The reader reads first: a view kept there would now hold this state.
      _ = try await reader.client().board()
      _ = try await reader.client().feature(id: 1)
      _ = try await reader.client().features(FeatureQuery())
      var settings = try await writer.admin().settings()
      settings.name = "Round \(round)"
      _ = try await writer.admin().putSettings(settings)
      _ = try await writer.admin().upsertFeature(
        ref: "one", FeatureUpsert(content: FeatureContent(title: "One, round \(round)")))
      _ = try await writer.admin().upsertFeature(
        ref: "r\(round)", FeatureUpsert(content: FeatureContent(title: "Added in \(round)")))
      #expect(try await reader.client().board().settings.name == "Round \(round)")
      #expect(try await reader.client().feature(id: 1).content.title == "One, round \(round)")
      let titles = try await reader.client().features(FeatureQuery(limit: 100)).features.map(
        \.content.title)
      #expect(titles.contains("Added in \(round)"), "\(titles)")
      #expect(titles.count == round + 1)
    }
  }
}
