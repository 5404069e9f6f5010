import Foundation

/// Bounds how many of a PostgreSQL store's pool connections the writes of one counter hold at
/// once, so that a counter whose row is locked (a long transaction elsewhere, a very hot
/// counter) cannot take every connection and leave the other counters' calls to be answered
/// busy.
///
/// Each write of a counter passes the gate before it asks the pool for a connection: at most
/// `limit` of one counter's writes are past it (holding a connection, or waiting in the pool's
/// queue for one); the others wait here, in the process, first come first served, without a
/// connection. One still waiting after `deadlineMilliseconds` is answered
/// ``VoteStoreError/Kind/busy`` without having run (nothing was changed). An uncontended write
/// costs one lock and one dictionary entry, and no round trip to the server.
final class PostgresCounterGate: @unchecked Sendable {
  /// How many writes of one counter may be past the gate at once.
  let limit: Int
  private let deadlineMilliseconds: Int
  private let lock = NSLock()
  private var counters: [Counter: Slot] = [:]

  /// A counter, by namespace and key.
  struct Counter: Hashable {
    var namespace: String
    var key: String
  }

  /// One counter's writes past the gate and those waiting for their turn, oldest first.
  private struct Slot {
    var passed = 0
    var waiting: [Waiter] = []
  }

  /// A write waiting at the gate; resumed once, with true (its turn) or false (too late).
  private final class Waiter: @unchecked Sendable {
    var continuation: CheckedContinuation<Bool, Never>?
    var timer: Task<Void, Never>?
  }

  /// A gate letting `limit` (at least 1) writes of one counter through at once; a write waits
  /// at most `deadlineMilliseconds` for its turn.
  init(limit: Int, deadlineMilliseconds: Int) {
    self.limit = max(1, limit)
    self.deadlineMilliseconds = max(1, deadlineMilliseconds)
  }

  /// Runs `body` once the counter's turn comes, and lets the next write of the counter through
  /// when it ends; throws `.busy` (without running `body`) when the turn does not come within
  /// the deadline.
  func passing<T>(
    _ counter: Counter, _ body: () async throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    try await enter(counter)
    defer { leave(counter) }
    return try await body()
  }

  /// How many writes of `counter` are past the gate and how many wait (for tests).
  func state(of counter: Counter) -> (passed: Int, waiting: Int) {
    lock.withLock { (counters[counter]?.passed ?? 0, counters[counter]?.waiting.count ?? 0) }
  }

  /// Lets a write of `counter` through when its turn is free (under the lock).
  private func passIfFree(_ counter: Counter) -> Bool {
    lock.withLock {
      guard counters[counter, default: Slot()].passed < limit else { return false }
      counters[counter, default: Slot()].passed += 1
      return true
    }
  }

  private func enter(_ counter: Counter) async throws(VoteStoreError) {
    if passIfFree(counter) { return }
    let waiter = Waiter()
    let admitted = await withCheckedContinuation {
      (continuation: CheckedContinuation<Bool, Never>) in
      lock.lock()
      // A write may have left between the look above and this one.
      if counters[counter, default: Slot()].passed < limit {
        counters[counter, default: Slot()].passed += 1
        lock.unlock()
        continuation.resume(returning: true)
        return
      }
      waiter.continuation = continuation
      counters[counter, default: Slot()].waiting.append(waiter)
      let nanoseconds = UInt64(deadlineMilliseconds) * 1_000_000
      waiter.timer = Task { [weak self] in
        try? await Task.sleep(nanoseconds: nanoseconds)
        if !Task.isCancelled { self?.expire(waiter, of: counter) }
      }
      lock.unlock()
    }
    guard admitted else {
      throw VoteStoreError(
        .busy,
        "\(limit) calls on the counter \(counter.key) in \(counter.namespace) already held or "
          + "waited for database connections (its row locked: a long transaction elsewhere, or "
          + "a hot counter) and this one's turn did not come within "
          + "\(Self.seconds(deadlineMilliseconds)) s; nothing was changed",
        publicDetail: "the counter is busy; nothing was changed")
    }
  }

  /// Lets the next waiting write of `counter` through, or counts this one out.
  private func leave(_ counter: Counter) {
    lock.lock()
    guard var slot = counters[counter] else {
      lock.unlock()
      return
    }
    if slot.waiting.isEmpty {
      slot.passed -= 1
      counters[counter] = slot.passed > 0 ? slot : nil
      lock.unlock()
      return
    }
    // The turn passes to the oldest waiter; the count past the gate stays.
    let next = slot.waiting.removeFirst()
    counters[counter] = slot
    let continuation = next.continuation
    next.continuation = nil
    lock.unlock()
    next.timer?.cancel()
    continuation?.resume(returning: true)
  }

  /// Answers `waiter` as too late, if it is still waiting.
  private func expire(_ waiter: Waiter, of counter: Counter) {
    lock.lock()
    guard let index = counters[counter]?.waiting.firstIndex(where: { $0 === waiter }) else {
      lock.unlock()
      return
    }
    counters[counter]?.waiting.remove(at: index)
    let continuation = waiter.continuation
    waiter.continuation = nil
    lock.unlock()
    continuation?.resume(returning: false)
  }

  private static func seconds(_ milliseconds: Int) -> String {
    let seconds = Double(milliseconds) / 1000
    return seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
  }
}
