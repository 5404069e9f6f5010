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
      DatabaseThread.nameForTheSystem(name)
      body()
      markFinished()
    }
    thread.name = name
    thread.stackSize = 1 << 20
    thread.start()
  }

  /// Names the calling thread for the system (`top -H`, `ps -L`, `perf`): not through
  /// Foundation's `Thread.name`, which on Linux reaches the system only when the thread sets
  /// it after its creator recorded the thread's id, a race a thread that starts at once can
  /// win. On Linux the name goes to `/proc/thread-self/comm`, which keeps 15 bytes.
  static func nameForTheSystem(_ name: String) {
    #if os(Linux)
      let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      guard file >= 0 else { return }
      _ = Array(name.utf8).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
      close(file)
    #elseif canImport(Darwin)
      _ = pthread_setname_np(name)
    #endif
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
