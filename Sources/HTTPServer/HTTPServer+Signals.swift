import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension HTTPServer {
  /// Waits for SIGTERM or SIGINT, then shuts down gracefully and returns.
  ///
  /// Call ``start()`` first. The two signals are set to be ignored for the process and
  /// watched instead, and stay ignored afterwards, so a second signal during the grace
  /// period does not kill the process half-way through the shutdown.
  public func runUntilSignalled(gracePeriod: Duration) async {
    _ = await SignalWaiter.wait(for: [SIGTERM, SIGINT])
    await shutdown(gracePeriod: gracePeriod)
  }
}

/// Turns the first of some signals into an `async` return.
enum SignalWaiter {
  /// Returns the signal number that arrived first.
  static func wait(for signals: [Int32]) async -> Int32 {
    let box = SignalSources()
    return await withCheckedContinuation { continuation in
      box.install(signals, continuation)
    }
  }
}

/// The dispatch sources of one wait, and its continuation, resumed once.
private final class SignalSources: @unchecked Sendable {
  private let queue = DispatchQueue(label: "HTTPServer.signals")
  private var sources: [DispatchSourceSignal] = []
  private var continuation: CheckedContinuation<Int32, Never>?

  func install(_ signals: [Int32], _ continuation: CheckedContinuation<Int32, Never>) {
    queue.sync {
      self.continuation = continuation
      for number in signals {
        _ = signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { [self] in fire(number) }
        source.resume()
        sources.append(source)
      }
    }
  }

  /// Runs on `queue`.
  private func fire(_ number: Int32) {
    guard let continuation else { return }
    self.continuation = nil
    for source in sources { source.cancel() }
    sources.removeAll()
    continuation.resume(returning: number)
  }
}
