import Foundation

/// One write at a time per counter on one PostgreSQL store instance; the others of that
/// counter wait in line here, holding no connection.
///
/// Writes of one counter lock its row and so run one after the other on the server anyway;
/// each one waiting there held one of the pool's connections. A row lock held elsewhere (a
/// `SELECT … FOR UPDATE` left open in `psql`, a long import) then took every connection of
/// the pool, one vote on that counter each, and the votes on every other counter waited for
/// a connection behind them. In line here, a counter takes at most one connection.
///
/// A write waits in line at most `waitMilliseconds`, then is answered
/// ``VoteStoreError/Kind/busy`` without having run (nothing was changed).
final class CounterLines: @unchecked Sendable {
  private final class Waiter: @unchecked Sendable {
    /// Set while it waits; taken (under the lines' lock) by whoever resumes it.
    var continuation: CheckedContinuation<Bool, Never>?
    /// Its deadline, cancelled once it is let in.
    var timer: Task<Void, Never>?
  }

  private let lock = NSLock()
  /// The counters with a write under way, each with the writes waiting for it, in order.
  private var lines: [String: [Waiter]] = [:]
  private let waitMilliseconds: Int

  /// Lines whose writes wait at most `waitMilliseconds` for their turn.
  init(waitMilliseconds: Int) {
    self.waitMilliseconds = max(1, waitMilliseconds)
  }

  /// Runs `body` once no other write of `counter` (namespace and key) is under way here.
  func run<T>(
    _ namespace: String, _ key: String, _ body: () async throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    // Keys hold no NUL (CounterNames.isValidKey), so the pair is unambiguous.
    let counter = namespace + "\u{0}" + key
    try await enter(counter)
    defer { leave(counter) }
    return try await body()
  }

  /// How many writes wait in line for `namespace`/`key` now (for tests).
  func waiting(_ namespace: String, _ key: String) -> Int {
    lock.withLock { lines[namespace + "\u{0}" + key]?.count ?? 0 }
  }

  private func enter(_ counter: String) async throws(VoteStoreError) {
    let waiter = Waiter()
    let admitted = await withCheckedContinuation { continuation in
      line(counter, waiter, continuation)
    }
    guard admitted else {
      let seconds = Double(waitMilliseconds) / 1000
      let shown = seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
      throw VoteStoreError(
        .busy,
        "earlier writes of this counter on this instance did not finish within \(shown) s (its "
          + "row locked elsewhere?); nothing was changed",
        publicDetail: "the database is busy; nothing was changed")
    }
  }

  /// Lets `waiter` in at once when no write of `counter` is under way, else puts it in line
  /// with its deadline.
  private func line(
    _ counter: String, _ waiter: Waiter, _ continuation: CheckedContinuation<Bool, Never>
  ) {
    lock.lock()
    guard lines[counter] != nil else {
      lines[counter] = []
      lock.unlock()
      continuation.resume(returning: true)
      return
    }
    waiter.continuation = continuation
    lines[counter, default: []].append(waiter)
    let nanoseconds = UInt64(waitMilliseconds) * 1_000_000
    // Set under the lock, before anything can let the waiter in and cancel it.
    waiter.timer = Task { [weak self] in
      do {
        try await Task.sleep(nanoseconds: nanoseconds)
      } catch {
        return  // let in before its deadline
      }
      self?.expire(counter, waiter)
    }
    lock.unlock()
  }

  /// Hands the counter's turn to the first write waiting for it, or ends its line.
  private func leave(_ counter: String) {
    lock.lock()
    guard var waiting = lines[counter], !waiting.isEmpty else {
      lines[counter] = nil
      lock.unlock()
      return
    }
    let next = waiting.removeFirst()
    lines[counter] = waiting
    let continuation = next.continuation
    next.continuation = nil
    let timer = next.timer
    lock.unlock()
    timer?.cancel()
    continuation?.resume(returning: true)
  }

  /// Takes `waiter` out of line when it is still waiting at its deadline.
  private func expire(_ counter: String, _ waiter: Waiter) {
    lock.lock()
    guard let continuation = waiter.continuation,
      let index = lines[counter]?.firstIndex(where: { $0 === waiter })
    else {
      lock.unlock()
      return
    }
    lines[counter]?.remove(at: index)
    waiter.continuation = nil
    lock.unlock()
    continuation.resume(returning: false)
  }
}
