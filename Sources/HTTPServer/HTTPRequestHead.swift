/// A request as the server knows it once its head is read and before any body byte is: what
/// ``HTTPServerConfiguration/bodyLimit`` decides a body limit from.
///
/// It holds the request line and the header fields exactly as they arrived, nothing a
/// handler added; no router has run yet, so there are no path parameters.
public struct HTTPRequestHead: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// The request target exactly as sent (path and query, still percent-encoded; the path of
  /// an absolute-form target).
  public var target: String
  /// The HTTP version as `(major, minor)`, e.g. `(1, 1)`.
  public var version: (major: Int, minor: Int)
  /// The header fields, in the order they arrived.
  public var headers: HTTPHeaders

  /// Creates a head.
  public init(
    method: HTTPMethod, target: String, version: (major: Int, minor: Int) = (1, 1),
    headers: HTTPHeaders = HTTPHeaders()
  ) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
  }

  /// The percent-decoded path, without the query (what ``HTTPRequest/path`` will be).
  public var path: String { URLComponentsDecoder.split(target).0 }

  /// The path's non-empty segments, each percent-decoded after splitting, exactly as
  /// ``Router`` matches them (so `%2F` stays inside its segment).
  public var pathSegments: [String] { Router.segments(ofTarget: target) }
}
