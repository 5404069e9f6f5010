import Foundation
import Testing

@testable import VoteStore

/// Merging one counter into another (`BoardTables.mergeCounter`, when a feature's counter is
/// renamed) on PostgreSQL while a vote on the counter merged away is in flight: the vote is in
/// the merged total. The merge read the old counter without locking it, and deleted it after
/// the vote committed: the vote was gone (a gap a helper noticed while fixing the board's
/// races).
@Suite struct PostgresMergeRaceTests {
  static let ns = "app.example"

  @Test func aVoteCommittedDuringAMergeIsInTheMergedTotal() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let url = try #require(handle.connectionString)
    let votes = try handle.open()
    // The merge's lock wait must outlast the watcher's first look on a loaded machine: the
    // default 5 s statement limit ended it first in a CI run (the row lock's 10 s stays).
    let board = try PostgresBoardStore(
      connectionString: url, poolSize: 2,
      timeouts: PostgresTimeouts(statementMilliseconds: 60_000, clientMilliseconds: 70_000))
    for _ in 0..<2 {
      _ = try await votes.apply(
        CounterMutation(
          namespace: Self.ns, key: "old", delta: 1,
          createIfMissing: CounterCreation(namespace: Self.ns, key: "old")))
    }
    _ = try await votes.apply(
      CounterMutation(
        namespace: Self.ns, key: "new", delta: 1,
        createIfMissing: CounterCreation(namespace: Self.ns, key: "new")))

    // A vote on the old counter, made and not yet committed: it holds the counter's row, as
    // a vote's transaction does.
    let voting = try PostgresConnection(connectionString: url)
    // Held open on purpose, longer than the store's idle-in-transaction bound on a loaded
    // machine (its sessions carry one; it ended this one in a full run).
    try voting.execute("SET idle_in_transaction_session_timeout = 0")
    try voting.execute("BEGIN")
    _ = try voting.query(
      """
      UPDATE counters SET anonymous = anonymous + 1, value = value + 1
      WHERE namespace = $1 AND key = 'old'
      """, [Self.ns])
    // Connected before the merge starts, so that its first look comes at once.
    let watching = try PostgresConnection(connectionString: url)
    let merge = Task {
      try await board.write { tables in
        try tables.mergeCounter(Self.ns, from: "old", into: "new", now: 1)
      }
    }
    // The merge waits for the vote's row (with the fix at its first read of it; without, at
    // its delete).
    var waiting = false
    for _ in 0..<600 where !waiting {
      let rows = try watching.query(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
      )
      let count = rows.first.flatMap { $0.first ?? nil }.flatMap { Int($0) } ?? 0
      waiting = count > 0
      if !waiting { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    #expect(waiting, "the merge never waited for the vote's row")
    try voting.execute("COMMIT")
    let merged = try await merge.value
    #expect(merged == 4, "2 + 1 votes on the old counter, 1 on the new")
    #expect(try await votes.record(namespace: Self.ns, key: "new")?.value == 4)
    #expect(try await votes.record(namespace: Self.ns, key: "old") == nil)
    voting.close()
    watching.close()
    await board.close()
    await votes.close()
    await handle.cleanUp()
  }
}
