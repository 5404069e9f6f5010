import Foundation

/// One HTTP request as a voter builds it.
public struct TransportRequest: Sendable, Equatable {
  /// The method, `GET` unless said otherwise.
  public var method: String
  /// The full URL, already percent-encoded.
  public var url: URL
  /// Header fields to send (the transport adds `Host`, `Content-Length` and the like).
  public var headers: [String: String]
  /// The body, if any.
  public var body: Data?
  /// How long to wait for the whole answer, in seconds.
  public var timeout: TimeInterval

  /// Creates a request.
  ///
  /// - Parameters:
  ///   - method: the HTTP method.
  ///   - url: the full, percent-encoded URL.
  ///   - headers: header fields to send.
  ///   - body: the body, if any.
  ///   - timeout: seconds to wait for the whole answer (10 by default).
  public init(
    method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil,
    timeout: TimeInterval = 10
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }
}
