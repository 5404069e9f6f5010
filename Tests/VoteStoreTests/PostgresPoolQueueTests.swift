import Foundation
import Testing

@testable import VoteStore

/// A row lock held elsewhere (a `SELECT … FOR UPDATE` left open in `psql`, a long import)
/// kept each of a PostgreSQL store's connections waiting on it in turn (up to its 5 s
/// statement timeout per call), and every call queued behind them, on any counter, waited
/// for a connection without end: with 100 clients voting on the locked counter of one
/// `serve` instance, a vote on another counter, `/get` and `/healthz` went unanswered for
/// over 60 s. A call now waits at most `queueMilliseconds` for a connection, then is
/// answered `.busy` without having run (nothing was changed).
@Suite(.timeLimit(.minutes(3))) struct PostgresPoolQueueTests {
  static let ns = "app.example"

  @Test func aCallQueuedBehindALockWaitIsAnsweredWithoutRunning() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    // One connection; a bound on the queue far below the 60 s lock timeout a vote waits out.
    let store = try PostgresVoteStore(
      connectionString: url, poolSize: 1,
      timeouts: PostgresTimeouts(
        statementMilliseconds: 60_000, clientMilliseconds: 70_000, queueMilliseconds: 1_000,
        lockMilliseconds: 60_000))
    for key in ["hot", "cold"] {
      _ = try await store.apply(Self.hit(key))
    }

    let locker = try PostgresConnection(connectionString: url)
    defer { locker.close() }
    // Held open on purpose, longer than the store's idle-in-transaction bound on a loaded
    // machine (its sessions carry one; it ended this one in a full run).
    try locker.execute("SET idle_in_transaction_session_timeout = 0")
    try locker.execute("BEGIN")
    _ = try locker.query(
      "SELECT id FROM counters WHERE namespace = $1 AND key = 'hot' FOR UPDATE", [Self.ns])

    // A vote on the locked counter takes the store's one connection and waits on the lock.
    let blocked = Task {
      await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(Self.hit("hot"))
      }
    }
    let watching = try PostgresConnection(connectionString: url)
    defer { watching.close() }
    var waiting = false
    for _ in 0..<600 where !waiting {
      let rows = try watching.query(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
      )
      waiting = (rows.first.flatMap { $0.first ?? nil }.flatMap { Int($0) } ?? 0) > 0
      if !waiting { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    try #require(waiting, "the vote never waited for the locked row")

    // A vote on another counter, queued behind it, is answered while the lock is still held.
    let queued = await storeError { () throws(VoteStoreError) in
      _ = try await store.apply(Self.hit("cold"))
    }
    let stillWaiting = try watching.query(
      "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
    )
    try locker.execute("ROLLBACK")
    let blockedError = await blocked.value

    #expect(queued?.kind == .busy, "\(String(describing: queued))")
    #expect(queued?.outcomeIsUnknown == false)
    #expect(queued?.message.contains("no database connection was free") == true)
    // Answered while the vote still waited on the lock; on a loaded machine the answer may
    // have come after that vote's own 60 s lock timeout, which then ended it busy.
    #expect(
      stillWaiting.first.flatMap { $0.first ?? nil } == "1" || blockedError?.kind == .busy,
      "answered only once the lock was let go: \(String(describing: blockedError))")
    // It never ran: "cold" has its first vote only, and the store writes again.
    #expect(try await store.record(namespace: Self.ns, key: "cold")?.value == 1)
    _ = try await store.apply(Self.hit("cold"))
    #expect(try await store.record(namespace: Self.ns, key: "cold")?.value == 2)
    await store.close()
  }

  static func hit(_ key: String) -> CounterMutation {
    CounterMutation(
      namespace: ns, key: key, delta: 1,
      createIfMissing: CounterCreation(namespace: ns, key: key))
  }
}

/// A queue that watches only the wait for a thread (PostgreSQL's pools): a job its thread
/// took is left to it, one still queued past the deadline is answered `.busy` and never run,
/// and new jobs are never refused at once.
@Suite struct QueueOnlyDeadlineTests {
  @Test func onlyJobsStillQueuedAreAnswered() async throws {
    let queue = JobQueue<Int>(deadlineMilliseconds: 600_000, watchesTaken: false)
    let first = ResultSlot()
    let second = ResultSlot()
    let running = DatabaseJob<Int>.make(
      { _ throws(VoteStoreError) in 1 }, completion: { first.result = $0 })
    let waiting = DatabaseJob<Int>.make(
      { _ throws(VoteStoreError) in 2 }, completion: { second.result = $0 })
    #expect(queue.enqueue(running) == nil)
    let taken = try #require(queue.take(limit: 1))
    #expect(queue.enqueue(waiting) == nil)

    // A look long after the deadline.
    _ = queue.sweep(clock: { .max })
    #expect(!running.isExpired, "a taken job is its thread's to finish")
    #expect(waiting.isExpired)
    let refusal = try #require(second.result)
    guard case .failure(let error) = refusal else {
      Issue.record("the queued job ran: \(refusal)")
      return
    }
    #expect(error.kind == .busy)
    #expect(!error.outcomeIsUnknown)
    #expect(queue.stalled == nil, "new jobs are not refused at once")

    _ = taken[0].run(0)
    taken[0].finish()
    #expect(try first.result?.get() == 1)
    let later = DatabaseJob<Int>.make({ _ throws(VoteStoreError) in 3 }, completion: { _ in })
    #expect(queue.enqueue(later) == nil)
    let next = try #require(queue.take(limit: 1))
    #expect(next.count == 1 && next[0] === later, "the answered job is not taken")
    _ = next[0].run(0)
    next[0].finish()
    queue.close()
  }
}

/// A job's result, set by its completion on whichever thread finishes it.
private final class ResultSlot: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Result<Int, VoteStoreError>?

  var result: Result<Int, VoteStoreError>? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
