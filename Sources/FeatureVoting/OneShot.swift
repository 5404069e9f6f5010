import Foundation

/// Hands the first of several competing outcomes (an answer, a timeout, a cancellation) to the
/// one task waiting for it; later outcomes are dropped.
///
/// Unlike a task group, the waiter never waits for the losers: a request that ignores its
/// cancellation cannot hold the caller past its timeout.
final class OneShot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value, Never>?
  private var value: Value?
  private var hooks: [@Sendable () -> Void] = []

  /// Waits for the first outcome (at once if it is already in).
  func wait() async -> Value {
    await withCheckedContinuation { continuation in
      lock.lock()
      if let value {
        lock.unlock()
        continuation.resume(returning: value)
      } else {
        self.continuation = continuation
        lock.unlock()
      }
    }
  }

  /// Offers an outcome; only the first one counts. Runs the ``whenFinished(_:)`` hooks once.
  func finish(_ outcome: Value) {
    lock.lock()
    guard value == nil else {
      lock.unlock()
      return
    }
    value = outcome
    let waiting = continuation
    continuation = nil
    let pending = hooks
    hooks = []
    lock.unlock()
    waiting?.resume(returning: outcome)
    for hook in pending { hook() }
  }

  /// Runs `hook` once an outcome is in (at once if it already is).
  func whenFinished(_ hook: @escaping @Sendable () -> Void) {
    lock.lock()
    if value != nil {
      lock.unlock()
      hook()
      return
    }
    hooks.append(hook)
    lock.unlock()
  }
}
