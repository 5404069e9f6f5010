/// Routes requests to handlers by method and path pattern.
///
/// Patterns are literal segments and `:name` parameters, e.g. `/get/:ns/:key`. A pattern
/// matches only paths with the same number of segments. Routes are tried in the order they
/// were added; the first match wins. A path that matches some route but not for this method
/// gets 405 with `Allow`; no match at all gets the `notFound` handler (404 by default).
public struct Router: Sendable {
  private struct Route: Sendable {
    var method: HTTPMethod
    var segments: [Segment]
    var handler: HTTPHandler
  }

  private enum Segment: Sendable, Equatable {
    case literal(String)
    case parameter(String)
  }

  private struct ImmediateRoute: Sendable {
    var segments: [Segment]
    var handler: HTTPImmediateHandler
  }

  private var routes: [Route] = []
  private var immediateRoutes: [ImmediateRoute] = []

  /// Answers requests that match no route. Defaults to a JSON 404.
  public var notFound: HTTPHandler = { _ in
    .json(#"{"error":"not found"}"#, status: 404)
  }

  /// Creates an empty router.
  public init() {}

  /// Adds a route for `method` and `pattern`.
  public mutating func on(
    _ method: HTTPMethod, _ pattern: String, handler: @escaping HTTPHandler
  ) {
    let segments = Router.split(pattern).map { s -> Segment in
      s.hasPrefix(":") ? .parameter(String(s.dropFirst())) : .literal(s)
    }
    routes.append(Route(method: method, segments: segments, handler: handler))
  }

  /// Adds a `GET` route (which also answers `HEAD`).
  public mutating func get(_ pattern: String, handler: @escaping HTTPHandler) {
    on(.get, pattern, handler: handler)
  }

  /// Adds a `POST` route.
  public mutating func post(_ pattern: String, handler: @escaping HTTPHandler) {
    on(.post, pattern, handler: handler)
  }

  /// Adds an answer the I/O thread may give (or defer) to a `GET` (or `HEAD`) of `pattern`,
  /// before the request goes to the `GET` route of the same pattern (see
  /// ``HTTPImmediateHandler``): `handler` returns nil to let that route answer.
  public mutating func immediate(_ pattern: String, handler: @escaping HTTPImmediateHandler) {
    let segments = Router.split(pattern).map { s -> Segment in
      s.hasPrefix(":") ? .parameter(String(s.dropFirst())) : .literal(s)
    }
    immediateRoutes.append(ImmediateRoute(segments: segments, handler: handler))
  }

  /// Offers a `GET` or `HEAD` request to the first immediate route its path matches; nil when
  /// none matches or that route passes.
  public func respondImmediately(
    to request: HTTPRequest, responder: HTTPResponder
  ) -> HTTPImmediateAnswer? {
    guard !immediateRoutes.isEmpty, request.method == .get || request.method == .head else {
      return nil
    }
    let parts = Router.segments(ofTarget: request.target)
    // By index: the routes that do not match are looked at in place, not copied.
    for index in immediateRoutes.indices {
      guard let params = Router.match(immediateRoutes[index].segments, parts) else { continue }
      var matched = request
      matched.parameterList = params
      return immediateRoutes[index].handler(matched, responder)
    }
    return nil
  }

  /// The immediate form of this router, to give to ``HTTPServer``, or nil without immediate
  /// routes.
  public var immediateHandler: HTTPImmediateHandler? {
    guard !immediateRoutes.isEmpty else { return nil }
    let router = self
    return { router.respondImmediately(to: $0, responder: $1) }
  }

  /// Finds the route for `request` and runs it, filling in `pathParameters`.
  public func respond(to request: HTTPRequest) async -> HTTPResponse {
    let parts = Router.segments(ofTarget: request.target)
    var allowed: [HTTPMethod] = []
    for route in routes {
      guard let params = Router.match(route.segments, parts) else { continue }
      let method = request.method == .head ? HTTPMethod.get : request.method
      guard route.method == method else {
        if !allowed.contains(route.method) { allowed.append(route.method) }
        continue
      }
      var matched = request
      matched.parameterList = params
      return await route.handler(matched)
    }
    if !allowed.isEmpty {
      var response = HTTPResponse.json(#"{"error":"method not allowed"}"#, status: 405)
      response.headers.replaceOrAdd(
        name: "Allow", value: allowed.map(\.rawValue).joined(separator: ", "))
      return response
    }
    return await notFound(request)
  }

  /// The handler form of this router, to give to ``HTTPServer``.
  public var handler: HTTPHandler {
    let router = self
    return { await router.respond(to: $0) }
  }

  /// The percent-decoded segments of the target's path, split before decoding so that an
  /// encoded slash (`%2F`) stays inside its segment.
  static func segments(ofTarget target: String) -> [String] {
    var target = target
    return target.withUTF8 { bytes in
      var end = bytes.count
      if let q = bytes.firstIndex(of: UInt8(ascii: "?")) { end = q }
      // Counted first, so the array is allocated once at its final size.
      var count = 0
      var previous = UInt8(ascii: "/")
      for i in 0..<end {
        if previous == 0x2F && bytes[i] != 0x2F { count += 1 }
        previous = bytes[i]
      }
      var parts: [String] = []
      parts.reserveCapacity(count)
      var start = 0
      for i in 0...end where i == end || bytes[i] == 0x2F {
        if i > start {
          let raw = UnsafeBufferPointer(rebasing: bytes[start..<i])
          if raw.contains(UInt8(ascii: "%")) {
            parts.append(URLComponentsDecoder.percentDecode(Array(raw), plusAsSpace: false))
          } else {
            parts.append(String(decoding: raw, as: UTF8.self))
          }
        }
        start = i + 1
      }
      return parts
    }
  }

  private static func split(_ path: String) -> [String] {
    // Byte-wise: '/' is ASCII, so this splits exactly like splitting the characters, faster.
    var parts: [String] = []
    var path = path
    path.withUTF8 { bytes in
      var start = 0
      for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x2F {
        if i > start {
          parts.append(
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        }
        start = i + 1
      }
    }
    return parts
  }

  private static func match(
    _ segments: [Segment], _ parts: [String]
  ) -> [(name: String, value: String)]? {
    guard segments.count == parts.count else { return nil }
    // Literals first, so a route that does not match allocates nothing.
    for (segment, part) in zip(segments, parts) {
      if case .literal(let literal) = segment, literal != part { return nil }
    }
    var params: [(name: String, value: String)] = []
    params.reserveCapacity(segments.count)
    for (segment, part) in zip(segments, parts) {
      if case .parameter(let name) = segment { params.append((name: name, value: part)) }
    }
    return params
  }

}
