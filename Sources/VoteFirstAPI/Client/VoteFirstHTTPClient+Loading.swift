import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension VoteFirstHTTPClient {
  /// The longest whole-call deadline, in seconds (7 days): a longer
  /// ``VoteFirstClientConfiguration/timeout``, `.infinity` included, is cut to it.
  public static let longestTimeout: TimeInterval = 7 * 24 * 60 * 60

  /// `timeout` as calls apply it: NaN and negatives are 0 (the call expires at once), at most
  /// ``longestTimeout``.
  static func effectiveTimeout(_ timeout: TimeInterval) -> TimeInterval {
    guard timeout > 0 else { return 0 }  // NaN compares false too.
    return min(timeout, longestTimeout)
  }

  /// Runs one data task for `request`, racing it against the whole-call deadline `timeout`
  /// and the caller's cancellation; the task is cancelled as soon as either wins, and the
  /// caller never waits for a task that ignores its cancellation.
  static func load(
    _ request: URLRequest, session: URLSession, timeout: TimeInterval
  ) async throws(VoteFirstError) -> (Data, URLResponse) {
    let url = request.url?.absoluteString ?? "(no URL)"
    // A task cancelled already sends nothing: a call that left could still take effect.
    if Task.isCancelled {
      throw VoteFirstError(.invalidRequest, message: "the call to \(url) was cancelled")
    }
    let seconds = effectiveTimeout(timeout)
    let race = LoadRace()
    let task = session.dataTask(with: request) { data, response, error in
      if let error {
        race.finish(.failure(error))
      } else if let response {
        race.finish(.answer(data ?? Data(), response))
      } else {
        race.finish(.failure(URLError(.badServerResponse)))
      }
    }
    // A dispatch timer rather than a sleeping task: it fires on time even when Swift's
    // cooperative threads are all busy.
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .nanoseconds(Int(seconds * 1_000_000_000))
    ) { race.finish(.expired) }
    race.whenFinished { task.cancel() }
    task.resume()
    let outcome = await withTaskCancellationHandler {
      await race.wait()
    } onCancel: {
      race.finish(.cancelled)
    }
    switch outcome {
    case .answer(let data, let response):
      return (data, response)
    case .failure(let error):
      throw loadingError(error, url: url, timeout: timeout)
    case .expired:
      throw VoteFirstError(.timedOut, message: "no whole answer from \(url) within \(timeout) s")
    case .cancelled:
      throw VoteFirstError(.invalidRequest, message: "the call to \(url) was cancelled")
    }
  }

  /// The error for a failed data task: a `URLError` (or an `NSError` of its domain) by its
  /// code, as ``VoteFirstError/Kind`` documents; anything else is
  /// ``VoteFirstError/Kind/invalidRequest``.
  static func loadingError(_ error: any Error, url: String, timeout: TimeInterval)
    -> VoteFirstError
  {
    let urlError: URLError
    if let error = error as? URLError {
      urlError = error
    } else if (error as NSError).domain == NSURLErrorDomain {
      #if canImport(FoundationNetworking)
        // swift-corelibs-foundation's Code(rawValue:) is failable; Apple's is not.
        urlError = URLError(URLError.Code(rawValue: (error as NSError).code) ?? .unknown)
      #else
        urlError = URLError(URLError.Code(rawValue: (error as NSError).code))
      #endif
    } else {
      return VoteFirstError(
        .invalidRequest, message: "the call to \(url) failed: \(error.localizedDescription)")
    }
    let named =
      "\(urlError.code.foundationName) (URLError \(urlError.code.rawValue)): "
      + urlError.localizedDescription
    switch urlError.code {
    case .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .cannotConnectToHost,
      .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff, .callIsActive:
      return VoteFirstError(.offline, message: "\(url): \(named)")
    case .timedOut:
      // The deadline's own expiry is `.expired`: this is the URL session's silence limit,
      // which may be shorter (a session of the caller's own).
      return VoteFirstError(
        .timedOut,
        message:
          "no answer from \(url): the URL session timed out (\(named)) before the call's "
          + "\(timeout) s timeout")
    case .cancelled:
      return VoteFirstError(.invalidRequest, message: "the call to \(url) was cancelled")
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData,
      .cannotDecodeContentData:
      return VoteFirstError(.badAnswer, message: "\(url): \(named)")
    default:
      return VoteFirstError(
        .invalidRequest, message: "cannot get an answer from \(url): \(named); not retried")
    }
  }
}

/// How one call's data task ended, first outcome wins: the answer, a failure, the deadline or
/// the caller's cancellation. Later outcomes are dropped.
final class LoadRace: @unchecked Sendable {
  enum Outcome: Sendable {
    case answer(Data, URLResponse)
    case failure(any Error)
    case expired
    case cancelled
  }

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

extension URLError.Code {
  /// The code's name as Foundation spells it (`secureConnectionFailed`), for messages; shared
  /// with FeatureVoting's transport.
  package var foundationName: String {
    switch self {
    case .notConnectedToInternet: "notConnectedToInternet"
    case .networkConnectionLost: "networkConnectionLost"
    case .cannotFindHost: "cannotFindHost"
    case .cannotConnectToHost: "cannotConnectToHost"
    case .dnsLookupFailed: "dnsLookupFailed"
    case .dataNotAllowed: "dataNotAllowed"
    case .internationalRoamingOff: "internationalRoamingOff"
    case .callIsActive: "callIsActive"
    case .timedOut: "timedOut"
    case .cancelled: "cancelled"
    case .badURL: "badURL"
    case .unsupportedURL: "unsupportedURL"
    case .badServerResponse: "badServerResponse"
    case .cannotDecodeRawData: "cannotDecodeRawData"
    case .cannotDecodeContentData: "cannotDecodeContentData"
    case .cannotParseResponse: "cannotParseResponse"
    case .appTransportSecurityRequiresSecureConnection:
      "appTransportSecurityRequiresSecureConnection"
    case .secureConnectionFailed: "secureConnectionFailed"
    case .serverCertificateHasBadDate: "serverCertificateHasBadDate"
    case .serverCertificateUntrusted: "serverCertificateUntrusted"
    case .serverCertificateHasUnknownRoot: "serverCertificateHasUnknownRoot"
    case .serverCertificateNotYetValid: "serverCertificateNotYetValid"
    case .clientCertificateRejected: "clientCertificateRejected"
    case .clientCertificateRequired: "clientCertificateRequired"
    case .httpTooManyRedirects: "httpTooManyRedirects"
    case .redirectToNonExistentLocation: "redirectToNonExistentLocation"
    case .userCancelledAuthentication: "userCancelledAuthentication"
    case .userAuthenticationRequired: "userAuthenticationRequired"
    case .dataLengthExceedsMaximum: "dataLengthExceedsMaximum"
    case .resourceUnavailable: "resourceUnavailable"
    case .zeroByteResource: "zeroByteResource"
    case .unknown: "unknown"
    default: "URLError"
    }
  }
}
