import Foundation
import HTTPServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The write end of the self-pipe the signal handler writes to (set once, before handlers).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGTERM, SIGINT and SIGHUP into an `async` return, installed synchronously, and
/// ignores SIGUSR1 and SIGUSR2.
///
/// `serve` installs this before it opens its store, so a supervisor (or a test) that sends
/// SIGTERM at any time gets a prompt stop, never the default action: while the server is
/// still starting (connecting to PostgreSQL can take seconds) a signal calls `whileStarting`
/// on the thread that reads the pipe, which ends the process; once ``serving()`` was called,
/// a signal is returned by ``wait()`` for a graceful shutdown. SIGHUP (the terminal of a
/// foreground `serve` closing, a logrotate `postrotate kill -HUP`) stops it the same way: its
/// default action killed the process with votes committed but not answered. There is no log
/// file to reopen (logs go to stderr), so SIGHUP means nothing else. SIGUSR1 and SIGUSR2,
/// whose default action also kills, mean nothing to `serve` and are ignored. The handler only
/// writes the signal number to a pipe; a plain thread reads it.
final class ServeSignalWaiter: @unchecked Sendable {
  private let lock = NSLock()
  private var isServing = false
  private var received: Int32?
  private var waiter: CheckedContinuation<Int32, Never>?

  /// The signals that stop `serve` gracefully.
  static let stopSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

  /// The signals `serve` ignores (their default action would kill it).
  static let ignoredSignals: [Int32] = [SIGUSR1, SIGUSR2]

  /// Installs handlers for ``stopSignals`` and ignores ``ignoredSignals``; until
  /// ``serving()``, a stop signal calls `whileStarting` with its number (on a thread of its
  /// own) instead of being kept for ``wait()``.
  init(whileStarting: @escaping @Sendable (Int32) -> Void) throws(CommandError) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else {
      throw .failure("cannot create the signal pipe: \(String(cString: strerror(errno)))")
    }
    let readEnd = fds[0]
    signalPipeWriteEnd = fds[1]
    // A flood of signals must never block the handler: bytes past the pipe's buffer are
    // dropped (only the first one is read).
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    for number in Self.ignoredSignals { _ = signal(number, SIG_IGN) }
    for number in Self.stopSignals {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { signo in
          var byte = UInt8(truncatingIfNeeded: signo)
          _ = write(signalPipeWriteEnd, &byte, 1)
        }
      #else
        action.__sigaction_u.__sa_handler = { signo in
          var byte = UInt8(truncatingIfNeeded: signo)
          _ = write(signalPipeWriteEnd, &byte, 1)
        }
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(number, &action, nil)
    }
    let thread = Thread { [self] in
      ThreadName.setForCurrentThread("signals")
      var byte: UInt8 = 0
      while true {
        let n = read(readEnd, &byte, 1)
        if n == 1 { break }
        if n < 0 && errno == EINTR { continue }
        byte = UInt8(SIGTERM)
        break
      }
      let signal = Int32(byte)
      let (starting, continuation) = lock.withLock {
        () -> (Bool, CheckedContinuation<Int32, Never>?) in
        if !isServing { return (true, nil) }
        received = signal
        defer { waiter = nil }
        return (false, waiter)
      }
      if starting {
        whileStarting(signal)
      } else {
        continuation?.resume(returning: signal)
      }
    }
    thread.name = "signals"
    thread.start()
  }

  /// From now on a signal is kept for ``wait()`` (a graceful shutdown) instead of ending a
  /// server that is still starting. Call it before printing `Serving on …`.
  func serving() {
    lock.withLock { isServing = true }
  }

  /// Returns the number of the first signal that arrived after ``serving()``.
  func wait() async -> Int32 {
    await withCheckedContinuation { continuation in
      let signal: Int32? = lock.withLock {
        if let received { return received }
        waiter = continuation
        return nil
      }
      if let signal { continuation.resume(returning: signal) }
    }
  }
}
