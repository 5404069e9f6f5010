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
    /// A literal, with its bytes when it is all ASCII (then a plain ASCII segment of a path is
    /// compared byte by byte, which gives what comparing the strings gives).
    case literal(String, ascii: [UInt8]?)
    case parameter(String)

    init(_ text: String) {
      if text.hasPrefix(":") {
        self = .parameter(String(text.dropFirst()))
      } else {
        let bytes = Array(text.utf8)
        self = .literal(text, ascii: bytes.allSatisfy { $0 < 0x80 } ? bytes : nil)
      }
    }
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
    let segments = Router.split(pattern).map(Segment.init)
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
    let segments = Router.split(pattern).map(Segment.init)
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
    // By index: the routes that do not match are looked at in place, not copied. The path is
    // matched as bytes; only the matching route's parameters become strings.
    let found = Router.withPathSegments(of: request.target) {
      path -> (Int, [(name: String, value: String)])? in
      for index in immediateRoutes.indices {
        if let params = Router.match(immediateRoutes[index].segments, path) {
          return (index, params)
        }
      }
      return nil
    }
    guard let (index, params) = found else { return nil }
    var matched = request
    matched.parameterList = params
    return immediateRoutes[index].handler(matched, responder)
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
    var allowed: [HTTPMethod] = []
    let method = request.method == .head ? HTTPMethod.get : request.method
    let found = Router.withPathSegments(of: request.target) {
      path -> (Int, [(name: String, value: String)])? in
      for index in routes.indices {
        guard let params = Router.match(routes[index].segments, path) else { continue }
        guard routes[index].method == method else {
          if !allowed.contains(routes[index].method) { allowed.append(routes[index].method) }
          continue
        }
        return (index, params)
      }
      return nil
    }
    if let (index, params) = found {
      var matched = request
      matched.parameterList = params
      return await routes[index].handler(matched)
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
    _ segments: [Segment], _ path: PathSegments
  ) -> [(name: String, value: String)]? {
    guard segments.count == path.ranges.count else { return nil }
    // Literals first, so a route that does not match allocates nothing.
    var parameters = 0
    for index in segments.indices {
      switch segments[index] {
      case .literal(let literal, let ascii):
        guard path.segment(index, equals: literal, ascii: ascii) else { return nil }
      case .parameter:
        parameters += 1
      }
    }
    var params: [(name: String, value: String)] = []
    params.reserveCapacity(parameters)
    for index in segments.indices {
      if case .parameter(let name) = segments[index] {
        params.append((name: name, value: path.value(at: index)))
      }
    }
    return params
  }

  /// A target's path as bytes and the ranges of its non-empty segments (split at `/`
  /// before any decoding, as ``segments(ofTarget:)`` splits it), for matching without a
  /// string per segment.
  private struct PathSegments {
    let bytes: UnsafeBufferPointer<UInt8>
    let ranges: UnsafeBufferPointer<Range<Int>>

    /// Segment `index` percent-decoded, exactly as ``Router/segments(ofTarget:)`` gives it.
    func value(at index: Int) -> String {
      let raw = UnsafeBufferPointer(rebasing: bytes[ranges[index]])
      if raw.contains(UInt8(ascii: "%")) {
        return URLComponentsDecoder.percentDecode(Array(raw), plusAsSpace: false)
      }
      return String(decoding: raw, as: UTF8.self)
    }

    /// Whether segment `index`, decoded, equals `literal`: byte by byte when both are plain
    /// ASCII (`ascii` holds the literal's bytes; then that is what `==` on the strings
    /// gives), else by comparing the decoded string.
    func segment(_ index: Int, equals literal: String, ascii: [UInt8]?) -> Bool {
      let raw = UnsafeBufferPointer(rebasing: bytes[ranges[index]])
      if let ascii, !raw.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "%") }) {
        guard raw.count == ascii.count else { return false }
        return ascii.withUnsafeBufferPointer { literalBytes in
          for i in 0..<raw.count where raw[i] != literalBytes[i] { return false }
          return true
        }
      }
      return value(at: index) == literal
    }
  }

  /// Runs `body` with the path segments of `target` (the part before any `?`), kept in a
  /// temporary allocation for the call.
  private static func withPathSegments<R>(
    of target: String, _ body: (PathSegments) -> R
  ) -> R {
    var target = target
    return target.withUTF8 { bytes in
      // Segments are non-empty and apart: at most half the bytes (rounded up) of them. One
      // pass, up to the first `?`.
      withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: bytes.count / 2 + 1) {
        ranges in
        var n = 0
        var start = 0
        var i = 0
        while i < bytes.count {
          let byte = bytes[i]
          if byte == UInt8(ascii: "?") { break }
          if byte == 0x2F {
            if i > start {
              ranges.initializeElement(at: n, to: start..<i)
              n += 1
            }
            start = i + 1
          }
          i += 1
        }
        if i > start {
          ranges.initializeElement(at: n, to: start..<i)
          n += 1
        }
        return body(
          PathSegments(bytes: bytes, ranges: UnsafeBufferPointer(rebasing: ranges[0..<n])))
      }
    }
  }

}
