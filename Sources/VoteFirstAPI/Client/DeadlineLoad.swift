import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One `URLSession` data task raced against a deadline for the whole exchange and against the
/// caller's cancellation: the loading under ``VoteFirstHTTPClient`` and FeatureVoting's
/// `URLSessionTransport`, which each turn its ``Outcome`` into their own error.
package enum DeadlineLoad {
  /// The longest deadline, in seconds (7 days): longer ones, `.infinity` included, are cut to
  /// it.
  package static let longestTimeout: TimeInterval = 7 * 24 * 60 * 60

  /// `timeout` as a deadline: NaN and negatives are 0 (it expires at once), at most
  /// ``longestTimeout``.
  package static func effectiveTimeout(_ timeout: TimeInterval) -> TimeInterval {
    guard timeout > 0 else { return 0 }  // NaN compares false too.
    return min(timeout, longestTimeout)
  }

  /// How one exchange ended; the first outcome wins.
  package enum Outcome: Sendable {
    /// The whole answer.
    case answer(Data, URLResponse)
    /// The data task failed (a `URLError`, mostly).
    case failure(any Error)
    /// The deadline passed first.
    case expired
    /// The calling task was cancelled first (or before anything was sent).
    case cancelled
    /// The answer's body passed the session's ``LoadingSession/maximumBytes`` (`limit`); it
    /// was not read further.
    case tooLarge(limit: Int)
  }

  /// Runs a data task for `request` on `loading`'s session until it ends, `timeout` seconds
  /// pass (see ``effectiveTimeout(_:)``) or the calling task is cancelled; the data task is
  /// cancelled as soon as the deadline or the cancellation wins, and the caller never waits
  /// for a task that ignores its cancellation. A task cancelled already sends nothing: a
  /// request that left could still take effect. An answer longer than the session's
  /// ``LoadingSession/maximumBytes`` is ``Outcome/tooLarge(limit:)``.
  package static func run(
    _ request: URLRequest, through loading: LoadingSession, timeout: TimeInterval
  ) async -> Outcome {
    if Task.isCancelled { return .cancelled }
    let race = Race()
    let limit = loading.maximumBytes
    let task: URLSessionDataTask
    if let collector = loading.collector {
      task = loading.session.dataTask(with: request)
      collector.track(task, limit: limit, race: race)
    } else {
      task = loading.session.dataTask(with: request) { data, response, error in
        if let error {
          race.finish(.failure(error))
        } else if let response {
          let data = data ?? Data()
          race.finish(data.count > limit ? .tooLarge(limit: limit) : .answer(data, response))
        } else {
          race.finish(.failure(URLError(.badServerResponse)))
        }
      }
    }
    // A dispatch timer rather than a sleeping task: it fires on time even when Swift's
    // cooperative threads are all busy. (An expiry after the answer is dropped.)
    let nanoseconds = Int(effectiveTimeout(timeout) * 1_000_000_000)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
      race.finish(.expired)
    }
    race.whenFinished { task.cancel() }
    task.resume()
    return await withTaskCancellationHandler {
      await race.wait()
    } onCancel: {
      race.finish(.cancelled)
    }
  }

  /// Hands the first of the competing outcomes to the one task waiting for it; later ones are
  /// dropped. Unlike a task group, the waiter never waits for the losers.
  final class Race: @unchecked Sendable {
    // lock()/unlock(): NSLock's withLock is on Apple platforms only since iOS 16.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Outcome, Never>?
    private var outcome: Outcome?
    private var hooks: [@Sendable () -> Void] = []

    /// Waits for the first outcome (at once if it is already in).
    func wait() async -> Outcome {
      await withCheckedContinuation { continuation in
        lock.lock()
        if let outcome {
          lock.unlock()
          continuation.resume(returning: outcome)
        } else {
          self.continuation = continuation
          lock.unlock()
        }
      }
    }

    /// Whether an outcome is in.
    var isFinished: Bool {
      lock.lock()
      defer { lock.unlock() }
      return outcome != nil
    }

    /// Offers an outcome; only the first one counts. Runs the ``whenFinished(_:)`` hooks once.
    func finish(_ offered: Outcome) {
      lock.lock()
      guard outcome == nil else {
        lock.unlock()
        return
      }
      outcome = offered
      let waiting = continuation
      continuation = nil
      let pending = hooks
      hooks = []
      lock.unlock()
      waiting?.resume(returning: offered)
      for hook in pending { hook() }
    }

    /// Runs `hook` once an outcome is in (at once if it already is).
    func whenFinished(_ hook: @escaping @Sendable () -> Void) {
      lock.lock()
      if outcome != nil {
        lock.unlock()
        hook()
        return
      }
      hooks.append(hook)
      lock.unlock()
    }
  }
}
