import Foundation
import Testing

@testable import VoteStore

/// On PostgreSQL each vote waiting for a counter's row lock (a long transaction elsewhere, a
/// very hot counter) held a pool connection, so once as many votes on that counter as the pool
/// had connections were waiting, calls on every other counter found no connection free: with
/// `serve --postgres`, a row locked in `psql` and 100 clients voting on it, a vote on another
/// counter was answered 503 after 12 s. A store now lets at most `connectionsPerCounter` (2)
/// of one counter's writes hold or wait for a connection; the rest wait in the process.
@Suite(.timeLimit(.minutes(5))) struct PostgresCounterGateTests {
  static let ns = "app.example"

  @Test func aLockedCounterLeavesConnectionsToTheOthers() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    // Three connections; no limit of the store's ends a wait while the test runs, so only
    // the connections decide whether the vote on "cold" is served while "hot" is locked.
    let store = try PostgresVoteStore(
      connectionString: url, poolSize: 3,
      timeouts: PostgresTimeouts(
        statementMilliseconds: 600_000, clientMilliseconds: 700_000,
        queueMilliseconds: 600_000, lockMilliseconds: 600_000))
    for key in ["hot", "cold"] { _ = try await store.apply(Self.hit(key)) }

    let locker = try PostgresConnection(connectionString: url)
    defer { locker.close() }
    try locker.execute("SET idle_in_transaction_session_timeout = 0")
    try locker.execute("BEGIN")
    _ = try locker.query(
      "SELECT id FROM counters WHERE namespace = $1 AND key = 'hot' FOR UPDATE", [Self.ns])

    // Four votes on the locked counter, more than the pool has connections.
    let hot = (0..<4).map { _ in
      Task { () -> VoteStoreError? in
        await storeError { () throws(VoteStoreError) in _ = try await store.apply(Self.hit("hot")) }
      }
    }
    let watching = try PostgresConnection(connectionString: url)
    defer { watching.close() }
    func lockWaits() throws -> Int {
      let rows = try watching.query(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
          + "AND datname = current_database()")
      return rows.first.flatMap { $0.first ?? nil }.flatMap { Int($0) } ?? 0
    }
    let counter = PostgresCounterGate.Counter(namespace: Self.ns, key: "hot")
    var settled = false
    for _ in 0..<600 where !settled {
      settled = try lockWaits() >= 2 && store.counterGateState(of: counter).waiting == 2
      if !settled { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    let waits = try lockWaits()
    #expect(settled, "the votes never queued: \(waits) waiting on the lock")

    // A vote on another counter is served while the lock is still held.
    let done = Flag()
    let cold = Task { () -> VoteStoreError? in
      defer { done.set() }
      return await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(Self.hit("cold"))
      }
    }
    for _ in 0..<900 where !done.isSet { try await Task.sleep(nanoseconds: 100_000_000) }
    let servedWhileLocked = done.isSet
    let waitsThen = try lockWaits()
    try locker.execute("ROLLBACK")

    #expect(servedWhileLocked, "the vote on another counter waited for the locked one")
    #expect(await cold.value == nil)
    #expect(waitsThen == 2, "votes of one counter waiting on its lock: \(waitsThen)")
    for vote in hot { #expect(await vote.value == nil) }
    #expect(try await store.record(namespace: Self.ns, key: "hot")?.value == 5)
    #expect(try await store.record(namespace: Self.ns, key: "cold")?.value == 2)
    #expect(store.counterGateState(of: counter) == (0, 0))
    await store.close()
  }

  /// A write whose turn does not come within the deadline is answered busy and never runs;
  /// one that leaves hands its turn to the oldest waiter.
  @Test func aWriteWaitingPastTheDeadlineIsBusyAndTurnsPassInOrder() async throws {
    let counter = PostgresCounterGate.Counter(namespace: Self.ns, key: "k")
    let late = PostgresCounterGate(limit: 1, deadlineMilliseconds: 1_000)
    let release = Latch()
    let holder = Task {
      try await late.passing(counter) { () async throws(VoteStoreError) in await release.wait() }
    }
    try await Self.until { late.state(of: counter).passed == 1 }
    let ran = Flag()
    let refused = await storeError { () throws(VoteStoreError) in
      try await late.passing(counter) { () async throws(VoteStoreError) in ran.set() }
    }
    #expect(refused?.kind == .busy, "\(String(describing: refused))")
    #expect(refused?.outcomeIsUnknown == false)
    #expect(!ran.isSet)
    #expect(late.state(of: counter) == (1, 0))
    await release.open()
    try await holder.value
    #expect(late.state(of: counter) == (0, 0))

    // Turns pass first come, first served, and another counter never waits.
    let gate = PostgresCounterGate(limit: 1, deadlineMilliseconds: 600_000)
    let order = Order()
    let first = Latch()
    let holding = Task {
      try await gate.passing(counter) { () async throws(VoteStoreError) in await first.wait() }
    }
    try await Self.until { gate.state(of: counter).passed == 1 }
    var waiters: [Task<Void, any Error>] = []
    for index in 0..<3 {
      waiters.append(
        Task {
          try await gate.passing(counter) { () async throws(VoteStoreError) in
            await order.append(index)
          }
        })
      try await Self.until { gate.state(of: counter).waiting == index + 1 }
    }
    let other = PostgresCounterGate.Counter(namespace: Self.ns, key: "other")
    try await gate.passing(other) { () async throws(VoteStoreError) in }
    await first.open()
    try await holding.value
    for waiter in waiters { try await waiter.value }
    #expect(await order.values == [0, 1, 2])
    #expect(gate.state(of: counter) == (0, 0))
  }

  static func until(_ condition: () -> Bool) async throws {
    for _ in 0..<600 where !condition() { try await Task.sleep(nanoseconds: 100_000_000) }
    try #require(condition(), "not reached within 60 s")
  }

  static func hit(_ key: String) -> CounterMutation {
    CounterMutation(
      namespace: ns, key: key, delta: 1,
      createIfMissing: CounterCreation(namespace: ns, key: key))
  }
}

/// A flag set from any task.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// Suspends its waiters until opened.
private actor Latch {
  private var opened = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    if opened { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  func open() {
    opened = true
    for continuation in waiting { continuation.resume() }
    waiting = []
  }
}

/// The order in which tasks ran.
private actor Order {
  var values: [Int] = []
  func append(_ value: Int) { values.append(value) }
}
