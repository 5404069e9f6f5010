import Foundation
import Testing
import VoteStore

/// `counterCount()`, what `serve`'s bound on new counters reads: the number of counters, as
/// `statistics()` counts them, without its other totals.
@Suite struct CounterCountTests {
  @Test func theCountIsTheNumberOfCounters() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    #expect(try await store.counterCount() == 0)
    for key in ["k1", "k2", "k3"] {
      _ = try await store.create(CounterCreation(namespace: "ns.test", key: key))
    }
    #expect(try await store.counterCount() == 3)
    #expect(try await store.counterCount() == store.statistics().counters)
    await store.close()
  }

  @Test func postgresCountsItsCounters() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    let store = try PostgresVoteStore(connectionString: url, poolSize: 1)
    #expect(try await store.counterCount() == 0)
    for key in ["k1", "k2"] {
      _ = try await store.create(CounterCreation(namespace: "ns.test", key: key))
    }
    #expect(try await store.counterCount() == 2)
    #expect(try await store.counterCount() == store.statistics().counters)
    await store.close()
  }
}
