import Foundation
import Testing

@testable import VoteStore

/// The migration lists and their runners: each step once, in order, newer schemas refused.
@Suite struct SchemaMigrationTests {
  @Test func bothListsAreNumberedOneTwoThreeWithoutGaps() {
    #expect(SchemaMigrations.problem(SQLiteSchema.migrations) == nil)
    #expect(SchemaMigrations.problem(PostgresSchema.migrations) == nil)
    #expect(SQLiteSchema.version == PostgresSchema.version)
  }

  @Test func aGapInAListIsReported() {
    let steps: [SchemaMigration<SQLiteConnection>] = [
      .sql(1, "one", "SELECT 1"), .sql(3, "three", "SELECT 3"),
    ]
    #expect(SchemaMigrations.problem(steps) == "migration #2 (three) has version 3")
  }

  @Test func aNewSQLiteStoreIsAtTheLatestVersion() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    await store.close()
    let db = try SQLiteConnection(
      path: dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path, create: false,
      busyTimeoutMilliseconds: 1000)
    defer { db.close() }
    #expect(try db.integer("PRAGMA user_version") == SQLiteSchema.version)
    #expect(
      try db.integer("SELECT value FROM meta WHERE name = 'schema_version'")
        == SQLiteSchema.version)
  }

  @Test func aNewerSQLiteStoreIsLeftByteForByteUntouched() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    _ = try await store.create(CounterCreation(namespace: "ns", key: "kept", value: 4))
    await store.close()
    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    try await runPython(
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("PRAGMA user_version = %d" % (int(sys.argv[2]) + 1))
      db.commit()
      db.close()
      """, arguments: [path, String(SQLiteSchema.version)])
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(path: path)
    }
    #expect(failure?.kind == .incompatible)
    #expect(failure?.message.contains(path) == true)
    #expect(failure?.message.contains("version \(SQLiteSchema.version + 1)") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func stepSixRecordsABoardFeaturesCounterAsImportedAndNoOtherCounter() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    _ = try await store.create(CounterCreation(namespace: "demo.app", key: "feature1", value: 4))
    _ = try await store.create(CounterCreation(namespace: "demo.app", key: "other", value: 2))
    _ = try await store.create(CounterCreation(namespace: "elsewhere", key: "feature1", value: 3))
    await store.close()
    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    // Back to a store as step 5 left it, with one board feature counting in demo.app/feature1.
    try await runPython(
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("UPDATE counters SET anonymous = value")
      db.execute("ALTER TABLE counters DROP COLUMN imported")
      db.execute("INSERT INTO vf_features VALUES ('demo.app', 1, '1', 'feature1', 'roadmap', "
                 "NULL, '', '', 0, 0, '{}')")
      db.execute("PRAGMA user_version = 5")
      db.execute("UPDATE meta SET value = 5 WHERE name = 'schema_version'")
      db.commit()
      db.close()
      """, arguments: [path])
    let reopened = try SQLiteVoteStore(path: path)
    await reopened.close()
    let db = try SQLiteConnection(path: path, create: false, busyTimeoutMilliseconds: 1000)
    defer { db.close() }
    #expect(try db.integer("PRAGMA user_version") == SQLiteSchema.version)
    #expect(
      try db.integer(
        "SELECT imported FROM counters WHERE namespace = 'demo.app' AND key = 'feature1'") == 4)
    #expect(try db.integer("SELECT count(*) FROM counters WHERE imported IS NOT NULL") == 1)
  }

  @Test func postgresInstancesStartingTogetherMigrateOnce() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    let connectionString = try #require(handle.connectionString)
    let stores = try await withThrowingTaskGroup(of: PostgresVoteStore.self) { group in
      for _ in 0..<4 {
        group.addTask { try PostgresVoteStore(connectionString: connectionString, poolSize: 1) }
      }
      return try await group.reduce(into: [PostgresVoteStore]()) { $0.append($1) }
    }
    let rows = try await TestPostgres.shared.administer(
      database: database,
      "SELECT version, count(*) FROM schema_migrations GROUP BY version ORDER BY version")
    let expected = (1...PostgresSchema.version).map { "\($0)|1" }.joined(separator: "\n")
    #expect(rows.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
    for store in stores { await store.close() }
    await handle.cleanUp()
  }

  @Test func aPostgresDatabaseFromBeforeSchemaMigrationsKeepsItsDataAndIsRecorded() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    // What a build without the table left behind: the version-1 tables, the version in meta.
    let db = try PostgresConnection(connectionString: try #require(handle.connectionString))
    try PostgresSchema.prepare(db, steps: Array(PostgresSchema.migrations.prefix(1)))
    db.close()
    _ = try await TestPostgres.shared.administer(
      database: database,
      """
      DROP TABLE schema_migrations;
      INSERT INTO counters (namespace, key, value, lower, upper, created_ms, updated_ms)
      VALUES ('ns', 'old', 7, -1, 1, 0, 0)
      """)
    let reopened = try handle.open()
    #expect(try await reopened.record(namespace: "ns", key: "old")?.value == 7)
    await reopened.close()
    let rows = try await TestPostgres.shared.administer(
      database: database, "SELECT version, summary FROM schema_migrations ORDER BY version")
    #expect(rows.hasPrefix("1|counters, voters and meta tables (recorded from meta)"))
    await handle.cleanUp()
  }

  @Test func aNewerPostgresSchemaInSchemaMigrationsIsRefused() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    try await handle.open().close()
    _ = try await TestPostgres.shared.administer(
      database: database, "INSERT INTO schema_migrations (version, summary) VALUES (99, 'x')")
    let connectionString = try #require(handle.connectionString)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try PostgresVoteStore(connectionString: connectionString, poolSize: 1)
    }
    #expect(failure?.kind == .incompatible)
    #expect(failure?.message.contains("version 99") == true)
    await handle.cleanUp()
  }
}

/// A step that fails is rolled back alone: the steps before it stay, the version says so.
@Suite struct FailingMigrationTests {
  @Test func aFailingSQLiteStepKeepsTheEarlierStepsAndNothingOfItself() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let db = try SQLiteConnection(
      path: dir.url.appendingPathComponent("m.sqlite3").path, create: true,
      busyTimeoutMilliseconds: 1000)
    defer { db.close() }
    let steps: [SchemaMigration<SQLiteConnection>] = [
      .sql(1, "meta", "CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER)"),
      .sql(2, "half", "CREATE TABLE half (x); INSERT INTO missing VALUES (1)"),
    ]
    var failure: VoteStoreError?
    do {
      try SQLiteSchema.migrate(db, context: MigrationContext(voterKey: .random()), steps: steps)
    } catch { failure = error }
    #expect(failure?.message.contains("migration 2 (half) failed") == true)
    #expect(try db.integer("PRAGMA user_version") == 1)
    #expect(try db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'half'") == 0)
    // Fixed, the next open applies step 2 only.
    let fixed = [steps[0], .sql(2, "half", "CREATE TABLE half (x)")]
    try SQLiteSchema.migrate(db, context: MigrationContext(voterKey: .random()), steps: fixed)
    #expect(try db.integer("PRAGMA user_version") == 2)
  }

  @Test func aFailingPostgresStepKeepsTheEarlierStepsAndNothingOfItself() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    let db = try PostgresConnection(connectionString: try #require(handle.connectionString))
    defer { db.close() }
    let broken =
      PostgresSchema.migrations + [
        .sql(
          PostgresSchema.version + 1, "half",
          "CREATE TABLE half (x int); INSERT INTO missing VALUES (1)")
      ]
    var failure: VoteStoreError?
    do { try PostgresSchema.prepare(db, steps: broken) } catch { failure = error }
    #expect(failure?.message.contains("(half) failed") == true)
    let state = try await TestPostgres.shared.administer(
      database: database,
      "SELECT max(version), to_regclass('half') IS NULL FROM schema_migrations")
    #expect(state.trimmingCharacters(in: .whitespacesAndNewlines) == "\(PostgresSchema.version)|t")
    await handle.cleanUp()
  }
}
