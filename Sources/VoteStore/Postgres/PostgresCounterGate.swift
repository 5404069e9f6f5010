import Foundation

/// Bounds how many of a PostgreSQL store's pool connections the writes of one counter hold at
/// once, so that a counter whose row is locked (a long transaction elsewhere, a very hot
/// counter) cannot take every connection and leave the other counters' calls to be answered
/// busy.
///
/// Each write of a counter passes the gate before it is queued for a connection: at most
/// `limit` of one counter's writes are past it (holding a connection, or queued for one); the
/// others wait here, first come first served, without a connection. When a write past the gate
/// ends, ``leave(_:)`` starts the oldest waiting one at once on a dispatch thread, so a hot
/// counter's writes follow one another without waiting for a task to be scheduled (Swift's
/// cooperative pool, busy under load, made 64 writers on one counter time out). One still
/// waiting after `deadlineMilliseconds` is refused with ``VoteStoreError/Kind/busy`` (nothing
/// was changed). An uncontended write costs one lock and one dictionary entry, and no round
/// trip to the server.
final class PostgresCounterGate: @unchecked Sendable {
  /// How many writes of one counter may be past the gate at once.
  let limit: Int
  private let deadlineMilliseconds: Int
  private let lock = NSLock()
  private var counters: [Counter: Slot] = [:]

  /// A counter, by namespace and key.
  struct Counter: Hashable, Sendable {
    var namespace: String
    var key: String
  }

  /// One counter's writes past the gate and those waiting for their turn, oldest first.
  private struct Slot {
    var passed = 0
    var waiting: [Waiter] = []
  }

  /// A write waiting at the gate: started, or refused, once.
  private final class Waiter: @unchecked Sendable {
    var start: (() -> Void)?
    var refuse: ((VoteStoreError) -> Void)?
    var timer: Task<Void, Never>?
  }

  /// A gate letting `limit` (at least 1) writes of one counter through at once; a write waits
  /// at most `deadlineMilliseconds` for its turn.
  init(limit: Int, deadlineMilliseconds: Int) {
    self.limit = max(1, limit)
    self.deadlineMilliseconds = max(1, deadlineMilliseconds)
  }

  /// Calls `start` (at once, or on a dispatch thread when a write frees a turn) when the
  /// counter's turn comes, or `refuse` with `.busy` when it does not come within the deadline;
  /// exactly one of them, once. After `start`, the caller calls ``leave(_:)`` once its write
  /// has ended.
  func enter(
    _ counter: Counter, start: @escaping () -> Void,
    refuse: @escaping (VoteStoreError) -> Void
  ) {
    lock.lock()
    if counters[counter, default: Slot()].passed < limit {
      counters[counter, default: Slot()].passed += 1
      lock.unlock()
      start()
      return
    }
    let waiter = Waiter()
    waiter.start = start
    waiter.refuse = refuse
    counters[counter, default: Slot()].waiting.append(waiter)
    let nanoseconds = UInt64(deadlineMilliseconds) * 1_000_000
    waiter.timer = Task { [weak self] in
      try? await Task.sleep(nanoseconds: nanoseconds)
      if !Task.isCancelled { self?.expire(waiter, of: counter) }
    }
    lock.unlock()
  }

  /// Ends a write of `counter` that was started: starts the oldest waiting one, if any.
  func leave(_ counter: Counter) {
    lock.lock()
    guard var slot = counters[counter] else {
      lock.unlock()
      return
    }
    guard !slot.waiting.isEmpty else {
      slot.passed -= 1
      counters[counter] = slot.passed > 0 ? slot : nil
      lock.unlock()
      return
    }
    // The turn passes to the oldest waiter; the count past the gate stays.
    let next = slot.waiting.removeFirst()
    counters[counter] = slot
    let start = next.start
    next.start = nil
    next.refuse = nil
    let timer = next.timer
    lock.unlock()
    timer?.cancel()
    // Not on this thread: a write ends inside its job's completion, under the job's lock,
    // and queueing the next job there takes the queue's lock, which the queue's watchdog
    // takes before a job's (a deadlock). A dispatch thread, not a task: Swift's cooperative
    // pool (two threads here) is the wait this hand-over avoids.
    if let start {
      let handOver = HandOver(start: start)
      DispatchQueue.global().async { handOver.start() }
    }
  }

  /// How many writes of `counter` are past the gate and how many wait (for tests).
  func state(of counter: Counter) -> (passed: Int, waiting: Int) {
    lock.withLock { (counters[counter]?.passed ?? 0, counters[counter]?.waiting.count ?? 0) }
  }

  /// Refuses `waiter` as too late, if it is still waiting.
  private func expire(_ waiter: Waiter, of counter: Counter) {
    lock.lock()
    guard let index = counters[counter]?.waiting.firstIndex(where: { $0 === waiter }) else {
      lock.unlock()
      return
    }
    counters[counter]?.waiting.remove(at: index)
    let refuse = waiter.refuse
    waiter.start = nil
    waiter.refuse = nil
    lock.unlock()
    refuse?(
      VoteStoreError(
        .busy,
        "\(limit) calls on the counter \(counter.key) in \(counter.namespace) already held or "
          + "waited for database connections (its row locked: a long transaction elsewhere, or "
          + "a hot counter) and this one's turn did not come within "
          + "\(Self.seconds(deadlineMilliseconds)) s; nothing was changed",
        publicDetail: "the counter is busy; nothing was changed"))
  }

  /// A waiter's start, handed to a dispatch thread (it is called once, there).
  private struct HandOver: @unchecked Sendable {
    let start: () -> Void
  }

  private static func seconds(_ milliseconds: Int) -> String {
    let seconds = Double(milliseconds) / 1000
    return seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
  }
}

extension PostgresCounterGate {
  /// Runs `body` once the counter's turn comes and lets the next write through when it ends;
  /// throws `.busy` (without running `body`) when the turn does not come in time. For tests
  /// and callers that are tasks already.
  func passing<T>(
    _ counter: Counter, _ body: () async throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    let admitted = await withCheckedContinuation {
      (continuation: CheckedContinuation<VoteStoreError?, Never>) in
      enter(
        counter, start: { continuation.resume(returning: nil) },
        refuse: { continuation.resume(returning: $0) })
    }
    if let admitted { throw admitted }
    defer { leave(counter) }
    return try await body()
  }
}
