import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ``HTTPTransport`` over `URLSession`, for apps (iOS 15+, macOS 12+) and Linux.
///
/// By default it uses its own ephemeral session with caching off: vote counts must never come
/// from a cache, and a `GET /hit` must reach the server every time. Connection failures become
/// ``VotingError/Kind/offline``, an expired ``TransportRequest/timeout``
/// ``VotingError/Kind/timedOut``. The timeout bounds the whole exchange (URLSession's own
/// `timeoutInterval` only bounds the silence between packets, and not on every platform), so
/// the transport also races the request against it and cancels the request when it expires;
/// the caller never waits on a request that ignores its cancellation.
public struct URLSessionTransport: HTTPTransport {
  private let session: URLSession

  /// Creates a transport over `session`, or over an ephemeral session without a cache.
  public init(session: URLSession? = nil) {
    if let session {
      self.session = session
    } else {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.urlCache = nil
      configuration.httpCookieStorage = nil
      self.session = URLSession(configuration: configuration)
    }
  }

  /// Sends `request` through the session.
  public func send(_ request: TransportRequest) async throws(VotingError) -> TransportResponse {
    var urlRequest = URLRequest(
      url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: request.timeout)
    urlRequest.httpMethod = request.method
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    urlRequest.httpBody = request.body
    let (data, response) = try await URLSessionTransport.exchange(
      urlRequest, session: session, request: request)
    guard let http = response as? HTTPURLResponse else {
      throw .badAnswer("not an HTTP response", url: request.url.absoluteString)
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      headers[String(describing: name)] = String(describing: value)
    }
    return TransportResponse(status: http.statusCode, headers: headers, body: data)
  }

  /// How one exchange ended.
  private enum Outcome: Sendable {
    case answer(Data, URLResponse)
    case failure(any Error)
    case expired
    case cancelled
  }

  /// Runs one data task, racing it against the timeout and the caller's cancellation; the
  /// task is cancelled as soon as either wins.
  private static func exchange(
    _ urlRequest: URLRequest, session: URLSession, request: TransportRequest
  ) async throws(VotingError) -> (Data, URLResponse) {
    let shot = OneShot<Outcome>()
    let task = session.dataTask(with: urlRequest) { data, response, error in
      if let error {
        shot.finish(.failure(error))
      } else if let response {
        shot.finish(.answer(data ?? Data(), response))
      } else {
        shot.finish(.failure(URLError(.badServerResponse)))
      }
    }
    // A dispatch timer rather than a sleeping task: it fires on time even when Swift's
    // cooperative threads are all busy, so the timeout holds under load.
    // (An expiry after the answer is dropped by the one-shot.)
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .milliseconds(Int(max(0, request.timeout) * 1000))
    ) { shot.finish(.expired) }
    shot.whenFinished { task.cancel() }
    task.resume()
    let outcome = await withTaskCancellationHandler {
      await shot.wait()
    } onCancel: {
      shot.finish(.cancelled)
    }
    let url = request.url.absoluteString
    switch outcome {
    case .answer(let data, let response):
      return (data, response)
    case .failure(let error as URLError):
      throw map(error, request: request)
    case .failure(let error):
      throw .offline("\(url): \(error.localizedDescription)")
    case .expired:
      throw .timedOut(after: request.timeout, url: url)
    case .cancelled:
      throw .invalidRequest("the request to \(url) was cancelled")
    }
  }

  /// The ``VotingError`` for a URL loading failure.
  static func map(_ error: URLError, request: TransportRequest) -> VotingError {
    let url = request.url.absoluteString
    switch error.code {
    case .timedOut:
      return .timedOut(after: request.timeout, url: url)
    case .cancelled:
      return .invalidRequest("the request to \(url) was cancelled")
    case .badURL, .unsupportedURL:
      return .invalidRequest("cannot request \(url): \(error.localizedDescription)")
    case .badServerResponse, .cannotDecodeRawData, .cannotDecodeContentData,
      .cannotParseResponse:
      return .badAnswer(error.localizedDescription, url: url)
    default:
      return .offline("\(url): \(error.localizedDescription) (URLError \(error.code.rawValue))")
    }
  }
}
