import Foundation
import Testing

@testable import VoteStore

/// A vote that waited out a counter's row lock held elsewhere (a `SELECT … FOR UPDATE` left
/// open in `psql`, a long import) counted as a failure of the whole store: with `serve
/// --postgres`, one vote on the locked counter made `/healthz` answer 503 "writes are
/// failing" until some other write succeeded, so a load balancer took out every instance
/// that had taken such a vote while all other counters were served. And the lock timeout
/// (10 s) was past the statement timeout (5 s), so such a wait ended as a slow statement,
/// not told from a slow database. The lock timeout is now 4 s, and a wait it ends is answered
/// busy (nothing was changed) without counting against the store's health.
@Suite(.timeLimit(.minutes(3))) struct PostgresLockWaitHealthTests {
  static let ns = "app.example"

  @Test func aVoteOnALockedCounterIsBusyAndTheStoreStaysHealthy() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    // A statement limit far past the lock timeout, so only the lock timeout ends the wait.
    let store = try PostgresVoteStore(
      connectionString: url, poolSize: 2,
      timeouts: PostgresTimeouts(
        statementMilliseconds: 120_000, clientMilliseconds: 130_000, lockMilliseconds: 2_000))
    _ = try await store.apply(Self.hit("hot"))

    let locker = try PostgresConnection(connectionString: url)
    defer { locker.close() }
    try locker.execute("SET idle_in_transaction_session_timeout = 0")
    try locker.execute("BEGIN")
    _ = try locker.query(
      "SELECT id FROM counters WHERE namespace = $1 AND key = 'hot' FOR UPDATE", [Self.ns])

    let refused = await storeError { () throws(VoteStoreError) in
      _ = try await store.apply(Self.hit("hot"))
    }
    #expect(refused?.kind == .busy, "\(String(describing: refused))")
    #expect(refused?.outcomeIsUnknown == false)
    #expect(refused?.message.hasPrefix("PostgreSQL [55P03]") == true)
    #expect(
      refused?.publicMessage
        == "the data is locked by another change that has not finished; nothing was changed")
    #expect(!store.writeHealth().isFailing, "\(store.writeHealth())")
    let health = await storeError { () throws(VoteStoreError) in try await store.checkHealth() }
    #expect(health == nil, "\(String(describing: health))")

    try locker.execute("ROLLBACK")
    _ = try await store.apply(Self.hit("hot"))
    #expect(try await store.record(namespace: Self.ns, key: "hot")?.value == 2)
    await store.close()
  }

  /// By default a wait for a row lock ends by the lock timeout, before the statement's.
  @Test func theLockTimeoutIsBelowTheStatementTimeout() {
    let timeouts = PostgresTimeouts()
    #expect(timeouts.lockMilliseconds < timeouts.statementMilliseconds)
  }

  static func hit(_ key: String) -> CounterMutation {
    CounterMutation(
      namespace: ns, key: key, delta: 1,
      createIfMissing: CounterCreation(namespace: ns, key: key))
  }
}
