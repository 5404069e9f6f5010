import Foundation
import Testing

@testable import VoteStore

/// Migration 2: a store written before counts were split into anonymous votes and voters.
@Suite struct AnonymousPartMigrationTests {
  /// Fills a version-1 database (as the old code left it, including the state item 6 of
  /// issue 7 produced: a voter's vote kept on a count of 0).
  static let version1Rows = """
    INSERT INTO counters (id, namespace, key, value, enable_reset, lower, upper, created_ms,
      updated_ms) VALUES
      (1, 'ns', 'broken', 0, false, -1, 1, 0, 0),
      (2, 'ns', 'mixed', 5, false, -1, 1, 0, 0),
      (3, 'ns', 'plain', 4, false, -1, 1, 0, 0);
    INSERT INTO voters (counter_id, voter) VALUES (1, 'alice'), (2, 'bob'), (2, 'carol');
    """

  static func checkMigrated(_ store: any VoteStore) async throws {
    let values = try await store.values(namespace: "ns", keys: ["broken", "mixed", "plain"])
    #expect(values == ["broken": 1, "mixed": 5, "plain": 4])
    // alice's kept vote counts and is hers: an anonymous decrement cannot take it.
    let anonymous = try await store.apply(
      CounterMutation(namespace: "ns", key: "broken", delta: -1))
    #expect(anonymous.outcome == .atZero)
    #expect(anonymous.record?.value == 1)
    // "mixed": 3 anonymous + bob + carol.
    let down = try await store.apply(CounterMutation(namespace: "ns", key: "mixed", delta: -9))
    #expect(down.record?.value == 2)
    let bob = try await store.apply(
      CounterMutation(namespace: "ns", key: "mixed", delta: -1, voter: "bob"))
    #expect(bob.record?.value == 1)
    #expect(try await store.statistics().voters == 2)
  }

  @Test func sqlite() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    let db = try SQLiteConnection(path: path, create: true, busyTimeoutMilliseconds: 1000)
    try db.execute("PRAGMA journal_mode = WAL")
    try SQLiteSchema.migrate(
      db, context: MigrationContext(voterKey: .random()),
      steps: Array(SQLiteSchema.migrations.prefix(1)))
    try db.execute(Self.version1Rows)
    db.close()
    let store = try SQLiteVoteStore(path: path)
    try await Self.checkMigrated(store)
    await store.close()
  }

  @Test func postgres() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let db = try PostgresConnection(connectionString: try #require(handle.connectionString))
    try PostgresSchema.prepare(db, steps: Array(PostgresSchema.migrations.prefix(1)))
    try db.execute(Self.version1Rows)
    db.close()
    let store = try handle.open()
    try await Self.checkMigrated(store)
    await store.close()
    await handle.cleanUp()
  }
}
