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
/// the transport also races the request against it and cancels the request when it expires.
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
    let outcome = await Deadline.race(seconds: request.timeout) { [session, urlRequest] in
      try await session.data(for: urlRequest)
    }
    let data: Data
    let response: URLResponse
    switch outcome {
    case .finished(let answer):
      (data, response) = answer
    case .failed(let error as URLError):
      throw URLSessionTransport.map(error, request: request)
    case .failed(let error):
      throw .offline("\(request.url.absoluteString): \(error.localizedDescription)")
    case .expired:
      throw .timedOut(after: request.timeout, url: request.url.absoluteString)
    }
    guard let http = response as? HTTPURLResponse else {
      throw .badAnswer("not an HTTP response", url: request.url.absoluteString)
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      headers[String(describing: name)] = String(describing: value)
    }
    return TransportResponse(status: http.statusCode, headers: headers, body: data)
  }

  /// The ``VotingError`` for a URL loading failure.
  static func map(_ error: URLError, request: TransportRequest) -> VotingError {
    let url = request.url.absoluteString
    switch error.code {
    case .timedOut:
      return .timedOut(after: request.timeout, url: url)
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
