import Foundation
import HTTPServer
import VoteStore
import WebBoard

/// The vote-counter routes: countapi.xyz and counterapi.dev v1 compatible, plus batch
/// counts, health and metrics, over any ``VoteStore``.
///
/// Give ``handler`` to an `HTTPServer`, or call ``respond(to:)`` directly in tests. Every
/// answer carries CORS headers and `X-Path`; rate limits apply per client address; a store
/// failure becomes a 503 with a JSON body and a log line, never a 200; a refused write a 4xx;
/// anything unexpected a logged 500. The wire protocol is
/// written down in `docs/counter-protocol.md`.
public final class CounterService: Sendable {
  /// The store that keeps the counts.
  public let store: any VoteStore
  /// The configuration the service was made with.
  public let configuration: CounterServiceConfiguration
  /// The routes, already wrapped with rate limits, CORS, JSONP and metrics.
  public let router: Router

  let limiter: RateLimiter
  let metrics: ServiceMetrics
  /// The VoteFirst board API under `/api/v1/` (docs/votefirst-api.md), when given boards.
  let voteFirst: VoteFirstRouter?
  /// The web board under `/b/` and `/assets/` (docs/web-board.md), when given boards.
  let webBoard: WebBoardFront?

  /// What an admin call (the board API's, `/api/v1/…`) is told on a server started without an
  /// admin token, where no token it could send would be taken: how to give the server one.
  public static let noAdminTokenMessage =
    "this server has no admin token configured: start roadmapctl serve with --admin-token "
    + "or ROADMAPCTL_ADMIN_TOKEN"

  /// Creates the service over `store`; with `boards` (on the same database), it also serves
  /// the VoteFirst board API under `/api/v1/`.
  public init(
    store: any VoteStore, boards: (any BoardStore)? = nil,
    configuration: CounterServiceConfiguration = .init()
  ) {
    self.store = store
    self.configuration = configuration
    self.limiter = RateLimiter(
      reads: configuration.readLimit, writes: configuration.writeLimit,
      maxClients: configuration.maxTrackedClients)
    let metrics = ServiceMetrics(logInterval: configuration.storeErrorLogInterval)
    self.metrics = metrics
    self.router = CounterService.makeRouter(
      store: store, configuration: configuration, limiter: limiter, metrics: metrics)
    let limiter = self.limiter
    // One context for the API and the web board: they share one view of the boards.
    let context = boards.map {
      VoteFirstContext(
        store: store, boards: $0, configuration: configuration, limiter: limiter,
        metrics: metrics)
    }
    self.voteFirst = context.map { VoteFirstRouter(context: $0) }
    self.webBoard = context.map { WebBoardFront(context: $0) }
  }

  /// The handler to give to an `HTTPServer`: answers `OPTIONS` preflights, refuses methods
  /// other than `GET`/`HEAD` with 405, and routes the rest.
  public var handler: HTTPHandler {
    let service = self
    return { await service.respond(to: $0) }
  }

  /// The immediate handler to give to an `HTTPServer` beside ``handler``: answers the
  /// counter reads (`/get`, `/info`, `/v1/:ns/:name`, `/counts/:ns?keys=`) on the server's I/O
  /// thread when the store knows the counters in memory
  /// (``VoteStore/cachedRecord(namespace:key:)``), and hands
  /// the votes (`/hit`, `/v1/:ns/:name/up` and `/down`) on such a counter straight to the
  /// store's writer (``VoteStore/submit(_:completion:)``), answering once they are durable;
  /// with the same headers, limits, metrics and log line as ``handler``. Nil for everything
  /// else.
  public var immediateHandler: HTTPImmediateHandler? {
    guard let immediate = router.immediateHandler else { return nil }
    let service = self
    return { request, responder in
      guard !service.isBoardPath(request.path) else { return nil }
      return immediate(request, responder)
    }
  }

  /// Whether `path` belongs to the VoteFirst API, the live Roadmap JSON or the web board,
  /// which ``respond(to:)`` routes before the counter routes.
  private func isBoardPath(_ path: String) -> Bool {
    // Every such path starts `/a` (`/api/v1`, `/assets/`), `/r` (`/roadmap/`) or `/b`: the
    // second byte turns away the counter routes without comparing any prefix.
    guard voteFirst != nil || webBoard != nil else { return false }
    var bytes = path.utf8.makeIterator()
    guard bytes.next() == UInt8(ascii: "/"), let second = bytes.next(),
      second == UInt8(ascii: "a") || second == UInt8(ascii: "r") || second == UInt8(ascii: "b")
    else { return false }
    if voteFirst != nil
      && (VoteFirstRouter.handles(path) || RoadmapJSONRoute.project(of: path) != nil)
    {
      return true
    }
    return webBoard != nil && WebBoardRoutes.handles(path: path)
  }

  /// Answers one request.
  public func respond(to request: HTTPRequest) async -> HTTPResponse {
    if let voteFirst, VoteFirstRouter.handles(request.path) {
      return Self.closingIfLimited(await voteFirst.respond(to: request))
    }
    if let voteFirst, request.method != .options,
      let project = RoadmapJSONRoute.project(of: request.path)
    {
      return Self.closingIfLimited(
        await RoadmapJSONRoute.respond(to: request, project: project, context: voteFirst.context))
    }
    if let webBoard, WebBoardRoutes.handles(path: request.path) {
      return Self.closingIfLimited(await webBoard.respond(to: request))
    }
    if request.method == .options {
      let start = RateLimiter.now()
      var response = HTTPResponse(status: 204)
      decorate(&response, xPath: request.path)
      response.headers.replaceOrAdd(
        name: "Access-Control-Allow-Methods", value: "GET, HEAD, OPTIONS")
      response.headers.replaceOrAdd(
        name: "Access-Control-Allow-Headers", value: "Authorization, X-Voter-ID, Content-Type")
      response.headers.replaceOrAdd(name: "Access-Control-Max-Age", value: "86400")
      finish(request, response, route: "OPTIONS", start: start)
      return response
    }
    if request.method != .get && request.method != .head {
      let start = RateLimiter.now()
      var response = HTTPResponse.json(#"{"error":"method not allowed"}"#, status: 405)
      response.headers.replaceOrAdd(name: "Allow", value: "GET, HEAD, OPTIONS")
      decorate(&response, xPath: request.path)
      finish(request, response, route: "unmatched", start: start)
      return response
    }
    return await router.respond(to: request)
  }

  /// `response`, closing the connection after it when it refuses a client over its rate
  /// limit, as the counter routes do: a client over its limit cannot hold connections open by
  /// keeping them busy with refused requests (docs/threat_model.md).
  static func closingIfLimited(_ response: HTTPResponse) -> HTTPResponse {
    // A full suggestion queue is a 429 too, with no Retry-After: that one is not a client's.
    guard response.status == 429, response.headers["Retry-After"] != nil else { return response }
    var response = response
    response.headers.replaceOrAdd(name: "Connection", value: "close")
    return response
  }

  /// Adds the headers every answer carries: CORS, `X-Path`, `Cache-Control: no-store` and
  /// `X-Content-Type-Options: nosniff` (a browser never guesses a type other than the one
  /// sent, so a JSON or JSONP answer cannot be read as HTML).
  func decorate(_ response: inout HTTPResponse, xPath: String) {
    CounterService.decorate(&response, xPath: xPath, origin: configuration.corsOrigin)
  }

  static func decorate(_ response: inout HTTPResponse, xPath: String, origin: String) {
    for header in commonHeaders(xPath: xPath, origin: origin) {
      response.headers.replaceOrAdd(name: header.name, value: header.value)
    }
  }

  /// The headers ``decorate(_:xPath:origin:)`` sets, in its order, after `first` when given
  /// (one array, made once).
  static func commonHeaders(
    xPath: String, origin: String, after first: (name: String, value: String)? = nil
  ) -> [(name: String, value: String)] {
    var fields: [(name: String, value: String)] = []
    fields.reserveCapacity(6)
    if let first { fields.append(first) }
    fields.append(("Access-Control-Allow-Origin", origin))
    fields.append(("Access-Control-Expose-Headers", "X-Path, Retry-After"))
    fields.append(("X-Path", headerSafe(xPath)))
    fields.append(("Cache-Control", "no-store"))
    fields.append(("X-Content-Type-Options", "nosniff"))
    return fields
  }

  /// `path` with every byte outside printable ASCII percent-encoded: control characters (a
  /// decoded `%00` or `%0A` in a refused name, `/ns/feature%00`), which a field value cannot
  /// hold (the HTTP server leaves out a field that does, so the answer would go without its
  /// `X-Path`), and non-ASCII (`/ns/a%C3%A9b`), which browsers read as Latin-1.
  static func headerSafe(_ path: String) -> String {
    let isControl = { (byte: UInt8) in byte < 0x20 || byte >= 0x7F }
    guard path.utf8.contains(where: isControl) else { return path }
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count + 8)
    for byte in path.utf8 {
      if isControl(byte) {
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Records metrics and the access log line for an answered request.
  ///
  /// The line holds the client address, method, target (with the values of
  /// ``CounterServiceConfiguration/redactedQueryParameters`` replaced by `[redacted]`),
  /// status and time; never a header field (`Authorization`, `X-Voter-ID`).
  func finish(_ request: HTTPRequest, _ response: HTTPResponse, route: String, start: Double) {
    CounterService.finish(
      request, response, route: route, start: start, metrics: metrics,
      configuration: configuration)
  }

  /// `status` is the answer's own when it differs from the response's: a JSONP answer goes
  /// out as 200 whatever happened, and is counted and logged with what happened.
  static func finish(
    _ request: HTTPRequest, _ response: HTTPResponse, status: Int? = nil, route: String,
    start: Double, metrics: ServiceMetrics, configuration: CounterServiceConfiguration
  ) {
    let now = RateLimiter.now()
    let seconds = now - start
    let status = status ?? response.status
    for line in metrics.recordRequest(
      route: route, status: status, seconds: seconds, now: now)
    {
      configuration.log(line)
    }
    if configuration.accessLog {
      let client = clientAddress(request, trustProxy: configuration.trustProxy)
      let ms = (seconds * 1000 * 100).rounded() / 100
      let target = logTarget(request.target, configuration: configuration)
      configuration.log(
        "\(client.isEmpty ? "-" : client) \(request.method) \(target) "
          + "\(status) \(ms)ms")
    }
  }

  /// The longest target a log line shows, in bytes; a longer one is cut there and ends in
  /// `...`.
  static let maxLoggedTargetBytes = 2048

  /// `target` as a log line shows it: the values of
  /// ``CounterServiceConfiguration/redactedQueryParameters`` replaced by `[redacted]`, at
  /// most ``maxLoggedTargetBytes`` long, and any byte outside printable ASCII (which the
  /// parser refuses in a target anyway) as `%XX`, so a line is always one line.
  static func logTarget(_ target: String, configuration: CounterServiceConfiguration) -> String {
    let redacted = QueryRedaction.redact(
      target, parameters: configuration.redactedQueryParameters)
    let utf8 = redacted.utf8
    let fits = utf8.count <= maxLoggedTargetBytes
    if fits && utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return redacted }
    var out: [UInt8] = []
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in utf8.prefix(maxLoggedTargetBytes) {
      if byte > 0x20 && byte < 0x7F {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    if !fits { out += Array("...".utf8) }
    return String(decoding: out, as: UTF8.self)
  }

  /// The hook for `HTTPServerConfiguration.refusalLog`: counts each answer the HTTP server
  /// makes by itself (a malformed request, a slow client, a request line, fields or body too
  /// large, an unknown method or version, too many connections) in `/metrics` under the route
  /// `unmatched`, and with ``CounterServiceConfiguration/accessLog`` writes its line as the
  /// service writes its own (`ADDRESS METHOD TARGET STATUS TIMEms`, `-` for what the server
  /// did not read, the target redacted and bounded).
  ///
  /// ```swift
  /// configuration.refusalLog = service.refusalLog
  /// ```
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public var refusalLog: @Sendable (AccessLogEntry) -> Void {
    let metrics = metrics
    let configuration = configuration
    return { entry in
      for line in metrics.recordRequest(route: "unmatched", status: entry.status, seconds: 0) {
        configuration.log(line)
      }
      guard configuration.accessLog else { return }
      let target =
        entry.target == "-"
        ? "-" : CounterService.logTarget(entry.target, configuration: configuration)
      let method = CounterService.logTarget(entry.method, configuration: configuration)
      configuration.log(
        "\(entry.peer.isEmpty ? "-" : entry.peer) \(method) \(target) \(entry.status) 0.0ms")
    }
  }

  /// The client's address, as rate limits count it and the access log shows it: the socket
  /// peer, or with `trustProxy` the last `X-Forwarded-For` entry (the one the nearest proxy
  /// appended) when that is a numeric address (``ClientAddress/numeric(_:)``: an IPv4 or IPv6
  /// address, optionally with a port, written in its usual form). An entry that is not one
  /// (`unknown`, a name, text with spaces) is not taken: the peer stands instead, so a header
  /// never puts words of its own into a log line or a rate-limit table.
  static func clientAddress(_ request: HTTPRequest, trustProxy: Bool) -> String {
    if trustProxy, let forwarded = request.headers.values(for: "X-Forwarded-For").last,
      let last = forwarded.split(separator: ",", omittingEmptySubsequences: false).last,
      let address = ClientAddress.numeric(last)
    {
      return address
    }
    return request.remoteAddress
  }
}
