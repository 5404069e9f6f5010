import Foundation

/// A dedicated OS thread for blocking database calls, kept off Swift's cooperative pool.
final class DatabaseThread: @unchecked Sendable {
  private let condition = NSCondition()
  private var finished = false
  private var waiters: [@Sendable () -> Void] = []

  /// Starts a thread named `name` that runs `body` once.
  ///
  /// The name is also the thread's name for the system (what `top -H`, `ps -L` and `perf`
  /// show), which takes at most 15 bytes: a longer name is Foundation's only.
  init(name: String, body: @escaping @Sendable () -> Void) {
    let thread = Thread { [self] in
      // Foundation hands a name to the system only when the thread names itself.
      Thread.current.name = name
      body()
      markFinished()
    }
    thread.name = name
    thread.stackSize = 1 << 20
    thread.start()
  }

  private func markFinished() {
    condition.lock()
    finished = true
    let callbacks = waiters
    waiters = []
    condition.unlock()
    for callback in callbacks { callback() }
  }

  /// Calls `callback` once the thread's body has returned (at once if it already has).
  func whenFinished(_ callback: @escaping @Sendable () -> Void) {
    condition.lock()
    if finished {
      condition.unlock()
      callback()
      return
    }
    waiters.append(callback)
    condition.unlock()
  }

  /// Waits until the thread's body has returned.
  func finished() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      whenFinished { continuation.resume() }
    }
  }
}
