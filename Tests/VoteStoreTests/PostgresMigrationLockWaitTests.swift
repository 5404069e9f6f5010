import Foundation
import Testing

@testable import VoteStore

/// Instances that start together migrate once: the first holds the migration lock while it
/// migrates, and the others wait for it. But that wait was bounded by the store's lock
/// timeout (10 s, meant for a vote's row), so an instance started beside a migration that
/// took longer failed to start ("canceling statement due to lock timeout"). The wait is now
/// bounded by the migration's statement timeout (600 s) only.
@Suite(.timeLimit(.minutes(3))) struct PostgresMigrationLockWaitTests {
  @Test func aStoreWaitsForAnotherInstancesMigrationPastTheLockTimeout() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    // Another instance, migrating.
    let migrating = try PostgresConnection(connectionString: url)
    defer { migrating.close() }
    try migrating.execute("SELECT pg_advisory_lock(\(PostgresSchema.migrationLock))")

    let opened = OpenResult()
    let thread = Thread {
      do throws(VoteStoreError) {
        let store = try PostgresVoteStore(
          connectionString: url, poolSize: 1,
          timeouts: PostgresTimeouts(lockMilliseconds: 1_000))
        opened.set(.success(store))
      } catch {
        opened.set(.failure(error))
      }
    }
    thread.start()

    // The store waits for the lock; it is held well past the store's 1 s lock timeout.
    let watching = try PostgresConnection(connectionString: url)
    defer { watching.close() }
    var waiting = false
    for _ in 0..<600 where !waiting && opened.value == nil {
      waiting =
        try watching.query(
          "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'advisory' "
            + "AND datname = current_database()"
        ).first?.first == "1"
      if !waiting { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    #expect(waiting, "the store never waited for the migration lock")
    try await Task.sleep(nanoseconds: 3_000_000_000)
    try migrating.execute("SELECT pg_advisory_unlock(\(PostgresSchema.migrationLock))")

    for _ in 0..<600 where opened.value == nil {
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    switch opened.value {
    case .success(let store)?:
      // Its own lock timeout is back in place for votes.
      _ = try await store.apply(
        CounterMutation(
          namespace: "app.example", key: "k", delta: 1,
          createIfMissing: CounterCreation(namespace: "app.example", key: "k")))
      await store.close()
    case .failure(let error)?:
      Issue.record("the store did not open: \(error)")
    case nil:
      Issue.record("the store did not open within 60 s")
    }
  }

  /// Votes still give up on a locked row after the store's lock timeout once it has opened.
  @Test func theLockTimeoutIsBackAfterTheMigrationLock() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    let store = try PostgresVoteStore(
      connectionString: url, poolSize: 1, timeouts: PostgresTimeouts(lockMilliseconds: 1_234))
    let setting = try await store.lockTimeoutSetting()
    #expect(setting == "1234ms")
    await store.close()
  }
}

/// The store's opening, set on the thread that opened it.
private final class OpenResult: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Result<PostgresVoteStore, VoteStoreError>?
  var value: Result<PostgresVoteStore, VoteStoreError>? { lock.withLock { stored } }
  func set(_ value: Result<PostgresVoteStore, VoteStoreError>) { lock.withLock { stored = value } }
}
