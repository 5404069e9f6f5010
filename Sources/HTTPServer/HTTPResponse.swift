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
    case 202: "Accepted"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 406: "Not Acceptable"
    case 409: "Conflict"
    case 410: "Gone"
    case 411: "Length Required"
    case 412: "Precondition Failed"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 417: "Expectation Failed"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    case 507: "Insufficient Storage"
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
/// ``HTTPHandler``: it answers at once from memory (``HTTPImmediateAnswer/response(_:)``),
/// takes the request to answer later through the ``HTTPResponder`` from any thread
/// (``HTTPImmediateAnswer/deferred``: a write handed straight to a store's writer thread), or
/// returns nil to pass the request on.
///
/// It runs on the one thread that serves every connection, so it must never block, wait or
/// do more than a few microseconds of work: a lookup in memory or a hand-off, not a database
/// call. It saves the two thread hand-offs of a handler task, which for a tiny answer are
/// most of the cost.
public typealias HTTPImmediateHandler =
  @Sendable (HTTPRequest, HTTPResponder) -> HTTPImmediateAnswer?

/// What an ``HTTPImmediateHandler`` did with a request.
public enum HTTPImmediateAnswer: Sendable {
  /// The answer, sent at once.
  case response(HTTPResponse)
  /// The handler keeps the ``HTTPResponder`` and calls it exactly once, from any thread.
  case deferred
}

/// Sends the answer to one request an ``HTTPImmediateHandler`` deferred. Call
/// ``respond(_:)`` exactly once, from any thread; until then the connection waits (and a
/// graceful shutdown waits for it, up to its grace period).
public struct HTTPResponder: Sendable {
  private enum Target: Sendable {
    case closure(@Sendable (HTTPResponse) -> Void)
    case server(any DeferredAnswerSink, DeferredAnswer)
  }

  private let target: Target

  /// A responder that hands the answer to `deliver` (the server makes these; tests may too).
  public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
    target = .closure(deliver)
  }

  /// The server's own: no allocation per request beyond what the answer needs.
  init(sink: any DeferredAnswerSink, answer: DeferredAnswer) {
    target = .server(sink, answer)
  }

  /// Sends `response` as the request's answer.
  public func respond(_ response: HTTPResponse) {
    switch target {
    case .closure(let deliver): deliver(response)
    case .server(let sink, let answer): sink.deliver(response, for: answer)
    }
  }

  /// Runs `body` on the server's I/O thread once it has handled every event of the round it
  /// is in (the requests read, the answers delivered): so an ``HTTPImmediateHandler`` can
  /// gather the requests of one round and hand them on together, with one hand-over and
  /// one wake-up. Call it from the immediate handler (on the I/O thread); a responder made
  /// with ``init(_:)`` runs `body` at once.
  public func afterRound(_ body: @escaping @Sendable () -> Void) {
    switch target {
    case .closure: body()
    case .server(let sink, _): sink.afterRound(body)
    }
  }

  /// Runs `body` on the server's I/O thread soon (from any thread): so answers worked out
  /// elsewhere, several at a time, are built and sent there, where the connections live,
  /// with one wake-up for all of them. ``respond(_:)`` called inside `body` goes out in the
  /// same round. A responder made with ``init(_:)`` runs `body` at once, on the caller's
  /// thread.
  public func onIOThread(_ body: @escaping @Sendable () -> Void) {
    switch target {
    case .closure: body()
    case .server(let sink, _): sink.onIOThread(body)
    }
  }
}

/// Where a deferred immediate answer goes: the connection, and what its access log line
/// needs when there is a log.
struct DeferredAnswer: Sendable {
  var fd: Int32
  var id: UInt64
  /// Method, target, peer and the monotonic start in nanoseconds; nil without an access log.
  var log: (method: String, target: String, peer: String, start: UInt64)?
}

/// The server's side of an ``HTTPResponder`` (the event loop).
protocol DeferredAnswerSink: AnyObject, Sendable {
  /// Logs and queues `response` as the answer `answer` waits for (any thread).
  func deliver(_ response: HTTPResponse, for answer: DeferredAnswer)

  /// Runs `body` at the end of the current round (I/O thread only).
  func afterRound(_ body: @escaping @Sendable () -> Void)

  /// Runs `body` on the I/O thread soon (any thread).
  func onIOThread(_ body: @escaping @Sendable () -> Void)
}
