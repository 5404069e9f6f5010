import Foundation
import VoteFirstAPI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`, for apps (iOS 15+, macOS 12+) and Linux.
///
/// By default it uses its own ephemeral session with caching off: vote counts must never come
/// from a cache, and a `GET /hit` must reach the server every time.
///
/// How a failure to get an answer is reported:
///
/// - ``VotingError/Kind/offline`` only when the server could not be reached: no network
///   (`notConnectedToInternet`, `dataNotAllowed`, `internationalRoamingOff`, `callIsActive`),
///   the host unknown (`cannotFindHost`, `dnsLookupFailed`), the connection refused
///   (`cannotConnectToHost`) or lost (`networkConnectionLost`). On Linux, FoundationNetworking
///   reports a refused connection and an unknown host with the same codes, and a connection
///   cut mid-answer (`unknown`, "transfer closed with …") or closed before any answer
///   (`badServerResponse`, "Empty reply from server") is taken as lost, as Apple's platforms
///   report it. Only these go into a ``DurableVoter``'s offline queue (and, for a vote that
///   counts once however often it is sent, a timeout, a 429 or a 5xx).
/// - ``VotingError/Kind/timedOut`` when ``TransportRequest/timeout`` expires (or URLSession's
///   own `timedOut`).
/// - ``VotingError/Kind/invalidRequest`` for a cancelled request (the caller's task was
///   cancelled), a URL that cannot be requested, and every other URL loading failure, which
///   waiting does not cure: App Transport Security refusing an `http://` URL
///   (`appTransportSecurityRequiresSecureConnection`), TLS and certificate failures
///   (`secureConnectionFailed`, `serverCertificate…`, `clientCertificate…`), too many
///   redirects, a redirect to nowhere, a cancelled authentication, a body over the limit. Its
///   message names the URLError (`appTransportSecurityRequiresSecureConnection (URLError
///   -1022)`).
/// - ``VotingError/Kind/badAnswer`` for an answer that is not HTTP or cannot be parsed, and
///   for one longer than the transport's `maximumAnswerBytes`.
///
/// The timeout bounds the whole exchange (URLSession's own `timeoutInterval` only bounds the
/// silence between packets, and not on every platform), so the transport also races the
/// request against it and cancels the request when it expires; the caller never waits on a
/// request that ignores its cancellation. A timeout that is NaN or not positive expires at
/// once; one longer than ``longestTimeout`` (`.infinity` included) is ``longestTimeout``.
public struct URLSessionTransport: HTTPTransport {
  private let loading: LoadingSession

  /// The default `maximumAnswerBytes`: 16 MiB, far above the counts of 10,000 features.
  public static let defaultMaximumAnswerBytes = LoadingSession.defaultCountingLimit

  /// Creates a transport over `session`, or over an ephemeral session without a cache whose
  /// own silence limit is lifted, so that only the request's timeout ends a request.
  ///
  /// An answer whose body passes `maximumAnswerBytes` (negative is 0) fails with
  /// ``VotingError/Kind/badAnswer``: on the transport's own session it is cancelled as soon
  /// as it passes the limit, so a server that sends without end cannot take the app's
  /// memory. A session of your own keeps its configuration and its delegate: an answer is
  /// checked against the limit only once it has been read whole, and a request silent for
  /// its `timeoutIntervalForRequest` (60 s by default) fails with
  /// ``VotingError/Kind/timedOut`` even when the request's timeout is longer (on Linux,
  /// whatever the request's `timeoutInterval`).
  public init(
    session: URLSession? = nil, maximumAnswerBytes: Int = defaultMaximumAnswerBytes
  ) {
    loading = LoadingSession(session: session, maximumBytes: maximumAnswerBytes)
  }

  /// The most bytes an answer's body may have.
  public var maximumAnswerBytes: Int { loading.maximumBytes }

  /// The longest timeout a request gets, in seconds (7 days): longer ones, `.infinity`
  /// included, are cut to it.
  public static let longestTimeout: TimeInterval = DeadlineLoad.longestTimeout

  /// `timeout` as the transport applies it: NaN and negatives are 0, at most
  /// ``longestTimeout``.
  static func effectiveTimeout(_ timeout: TimeInterval) -> TimeInterval {
    DeadlineLoad.effectiveTimeout(timeout)
  }

  /// Sends `request` through the session.
  public func send(_ request: TransportRequest) async throws(VotingError) -> TransportResponse {
    // URLSession itself waits for silence up to the timeout; 0 would mean its default there.
    let silence = max(Self.effectiveTimeout(request.timeout), 0.001)
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: silence)
    urlRequest.httpMethod = request.method
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = request.body
    let (data, response) = try await URLSessionTransport.exchange(
      urlRequest, through: loading, request: request)
    guard let http = response as? HTTPURLResponse else {
      throw .badAnswer("not an HTTP response", url: request.url.absoluteString)
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      headers[String(describing: name)] = String(describing: value)
    }
    return TransportResponse(status: http.statusCode, headers: headers, body: data)
  }

  /// Runs one data task against the request's timeout and the caller's cancellation
  /// (``DeadlineLoad/run(_:through:timeout:)``), and names how it failed.
  private static func exchange(
    _ urlRequest: URLRequest, through loading: LoadingSession, request: TransportRequest
  ) async throws(VotingError) -> (Data, URLResponse) {
    let outcome = await DeadlineLoad.run(urlRequest, through: loading, timeout: request.timeout)
    let url = request.url.absoluteString
    switch outcome {
    case .answer(let data, let response):
      return (data, response)
    case .failure(let error):
      throw map(error, request: request)
    case .expired:
      throw .timedOut(after: Self.effectiveTimeout(request.timeout), url: url)
    case .cancelled:
      throw .invalidRequest("the request to \(url) was cancelled")
    case .tooLarge(let limit):
      throw .badAnswer(
        "longer than \(limit) bytes (maximumAnswerBytes); it was not read further", url: url)
    }
  }

  /// The ``VotingError`` for a failure of the data task: a `URLError` (or an `NSError` of
  /// its domain) by its code, anything else as ``VotingError/Kind/invalidRequest``.
  static func map(_ error: any Error, request: TransportRequest) -> VotingError {
    if let urlError = URLError.loadingFailure(error) { return map(urlError, request: request) }
    return .invalidRequest(
      "the request to \(request.url.absoluteString) failed: \(error.localizedDescription)")
  }

  /// The ``VotingError`` for a URL loading failure (see the type's documentation).
  static func map(_ error: URLError, request: TransportRequest) -> VotingError {
    let url = request.url.absoluteString
    let named =
      "\(error.code.foundationName) (URLError \(error.code.rawValue)): "
      + error.localizedDescription
    switch error.code {
    case .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .cannotConnectToHost,
      .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff, .callIsActive:
      return .offline("\(url): \(named)")
    case .timedOut:
      // The transport's own deadline is `.expired`: this is the URL session's silence limit,
      // which may be shorter (a session of the caller's own).
      return .timedOut(
        "no answer from \(url): the URL session timed out (\(named)) before the request's "
          + "\(Self.effectiveTimeout(request.timeout)) s timeout")
    case .cancelled:
      return .invalidRequest("the request to \(url) was cancelled")
    case .badURL, .unsupportedURL:
      return .invalidRequest("cannot request \(url): \(named)")
    case .badServerResponse, .cannotDecodeRawData, .cannotDecodeContentData,
      .cannotParseResponse:
      return .badAnswer(named, url: url)
    default:
      return .invalidRequest("cannot get an answer from \(url): \(named); not retried or queued")
    }
  }
}
