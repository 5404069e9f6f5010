import Foundation
import Testing

@testable import VoteStore

/// An instance stopped inside a write transaction (`SIGSTOP`, a paused VM, a swapped-out
/// process: measured with three `serve` instances, one stopped mid-vote) held the counter's
/// row lock for as long as it was stopped, and every vote on that counter through the other
/// instances failed with 503 after 5 s, again and again. The store's sessions now carry
/// `idle_in_transaction_session_timeout`, so the server ends such a session and lets its
/// locks go.
@Suite(.timeLimit(.minutes(3))) struct PostgresIdleTransactionTests {
  static let ns = "app.example"

  @Test func aSessionStoppedInsideATransactionLetsItsRowLockGo() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    // The lock timeout as long as the 5 s statement timeout: the vote waits that long at most.
    let store = try PostgresVoteStore(
      connectionString: url, poolSize: 2, timeouts: PostgresTimeouts(lockMilliseconds: 10_000))
    let hit = CounterMutation(
      namespace: Self.ns, key: "hot", delta: 1,
      createIfMissing: CounterCreation(namespace: Self.ns, key: "hot"))
    _ = try await store.apply(hit)

    // A session of the store's kind whose client stops after locking the row.
    let stopped = try PostgresConnection(
      connectionString: url, timeouts: PostgresTimeouts(idleInTransactionMilliseconds: 1_000))
    defer { stopped.close() }
    try stopped.execute("BEGIN")
    _ = try stopped.query(
      "SELECT id FROM counters WHERE namespace = $1 AND key = 'hot' FOR UPDATE", [Self.ns])

    // A vote through another instance waits for the row (up to its 5 s statement timeout):
    // the server ends the stopped session after 1 s, and the vote is made.
    let vote = await storeError { () throws(VoteStoreError) in _ = try await store.apply(hit) }
    #expect(vote == nil, "\(String(describing: vote))")
    #expect(try await store.record(namespace: Self.ns, key: "hot")?.value == 2)
    let afterwards = await storeError { () throws(VoteStoreError) in
      _ = try stopped.query("SELECT 1")
    }
    #expect(afterwards != nil, "the stopped session was not ended")
    await store.close()
  }
}
