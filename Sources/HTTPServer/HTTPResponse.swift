/// An HTTP response produced by a handler.
///
/// The server adds `Content-Length`, `Date` and `Connection` when it writes the response;
/// handlers set only what is specific to them.
public struct HTTPResponse: Sendable {
  /// The status code, such as 200 or 404.
  public var status: Int
  /// The header fields the handler chose.
  public var headers: HTTPHeaders
  /// The body bytes. Omitted on the wire for `HEAD` requests and 204/304 answers.
  public var body: [UInt8]

  /// Creates a response.
  public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A response whose body is `text` in UTF-8 with the given content type.
  public init(status: Int = 200, contentType: String, text: String) {
    self.init(
      status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
  }

  /// A JSON response whose body is already-encoded JSON text.
  public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json; charset=utf-8", text: text)
  }

  /// The standard reason phrase for `status`, or `"Unknown"`.
  public static func reasonPhrase(for status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 417: "Expectation Failed"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Unknown"
    }
  }
}

/// Something that turns a request into a response.
///
/// Handlers run on Swift's concurrency pool, never on the server's I/O thread, so they may
/// `await` slow work (a durable database commit) without delaying other connections.
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// A handler the server's I/O thread calls inline, before it hands a request to
/// ``HTTPHandler``: it answers at once from memory, or returns nil to pass the request on.
///
/// It runs on the one thread that serves every connection, so it must never block, wait or
/// do more than a few microseconds of work: a lookup in memory, not a database call. It
/// saves the two thread hand-offs of a handler task, which for a tiny answer are most of
/// the cost.
public typealias HTTPImmediateHandler = @Sendable (HTTPRequest) -> HTTPResponse?
