import HTTPServer
import VoteStore

extension CounterService {
  /// A route body: turns a request into a reply, or throws.
  ///
  /// A thrown ``ResponseError`` (a ``ServiceError``, a ``Reply``) is answered as it says; a
  /// ``VoteStoreError`` is a store failure (503) or, for a refusal
  /// (``VoteStoreError/isRefusal``), a refused write (409 out of range, 400 invalid); anything
  /// else is a logged 500.
  /// See ``ServiceError/answer(for:)``.
  typealias RouteBody = @Sendable (CounterRoutes, HTTPRequest) async throws -> Reply

  /// A read answered from the store's memory on the I/O thread, or nil to leave the request
  /// to the route's ``RouteBody``. It never waits and never throws.
  typealias ImmediateBody = @Sendable (CounterRoutes, HTTPRequest) -> Reply?

  /// A vote planned on the I/O thread (see ``ImmediatePlan``), or nil to leave the request to
  /// the route's ``RouteBody``.
  typealias ImmediateWriteBody = @Sendable (CounterRoutes, HTTPRequest) -> ImmediatePlan?

  /// Builds the router: every route wrapped with JSONP checks, rate limits, store-error
  /// handling, common headers and metrics.
  static func makeRouter(
    store: any VoteStore, configuration: CounterServiceConfiguration, limiter: RateLimiter,
    metrics: ServiceMetrics
  ) -> Router {
    let routes = CounterRoutes(store: store, configuration: configuration, metrics: metrics)
    let batcher = VoteBatcher(routes: routes)
    var router = Router()

    // `head` is what a HEAD request runs. A read route runs its own body; a writing route
    // must name the read that answers for it (a HEAD never writes: link checkers and
    // uptime monitors send HEAD), or HEAD gets 405.
    func add(
      _ pattern: String, _ kind: RateLimiter.Kind?, _ dialect: Dialect,
      head: RouteBody? = nil, _ body: @escaping RouteBody
    ) {
      let headBody: RouteBody? = kind == .write ? head : body
      router.get(pattern) { request in
        guard request.method == .head else {
          return await run(
            request, route: pattern, kind: kind, dialect: dialect, body: body, routes: routes,
            limiter: limiter)
        }
        return await run(
          request, route: pattern, kind: kind == nil ? nil : .read, dialect: dialect,
          body: headBody ?? { _, _ in headNotAllowed(dialect) }, routes: routes,
          limiter: limiter)
      }
    }

    // The reads the store's memory can answer, on the I/O thread (HEAD too: these are reads).
    func addImmediate(_ pattern: String, _ dialect: Dialect, _ body: @escaping ImmediateBody) {
      router.immediate(pattern) { request, _ in
        runImmediately(
          request, route: pattern, kind: .read, dialect: dialect, body: body, routes: routes,
          limiter: limiter
        ).map(HTTPImmediateAnswer.response)
      }
    }
    // The votes the store's writer can take straight from the I/O thread; a HEAD is the read.
    func addImmediateWrite(
      _ pattern: String, _ dialect: Dialect, head: @escaping ImmediateBody,
      body: @escaping ImmediateWriteBody
    ) {
      router.immediate(pattern) { request, responder in
        guard request.method != .head else {
          return runImmediately(
            request, route: pattern, kind: .read, dialect: dialect, body: head, routes: routes,
            limiter: limiter
          ).map(HTTPImmediateAnswer.response)
        }
        return runImmediateWrite(
          request, route: pattern, dialect: dialect, body: body, routes: routes,
          limiter: limiter, responder: responder, batcher: batcher)
      }
    }
    for pattern in ["/get/:ns/:key", "/get/:key"] {
      addImmediate(pattern, .countapi) { $0.countapiGetImmediate($1) }
    }
    for pattern in ["/hit/:ns/:key", "/hit/:key"] {
      addImmediateWrite(
        pattern, .countapi, head: { $0.countapiGetImmediate($1) },
        body: { $0.countapiHitPlan($1) })
    }
    for up in [true, false] {
      addImmediateWrite(
        up ? "/v1/:ns/:name/up" : "/v1/:ns/:name/down", .counterapi,
        head: { $0.counterapiGetImmediate($1) }, body: { $0.counterapiStepPlan($1, up: up) })
    }
    for pattern in ["/info/:ns/:key", "/info/:key"] {
      addImmediate(pattern, .countapi) { $0.countapiInfoImmediate($1) }
    }
    addImmediate("/v1/:ns/:name", .counterapi) { $0.counterapiGetImmediate($1) }
    addImmediate("/counts/:ns", .countapi) { $0.batchCountsImmediate($1) }

    // countapi.xyz: each keyed route with and without the namespace.
    // A HEAD on a writing route is answered as the /get of the same counter.
    let countapiGet: RouteBody = { try await $0.countapiGet($1) }
    for prefix in ["/get", "/hit", "/update", "/set", "/info"] {
      let body: RouteBody
      let kind: RateLimiter.Kind
      switch prefix {
      case "/get": (body, kind) = (countapiGet, .read)
      case "/hit": (body, kind) = ({ try await $0.countapiHit($1) }, .write)
      case "/update": (body, kind) = ({ try await $0.countapiUpdate($1) }, .write)
      case "/set": (body, kind) = ({ try await $0.countapiSet($1) }, .write)
      default: (body, kind) = ({ try await $0.countapiInfo($1) }, .read)
      }
      add(prefix + "/:ns/:key", kind, .countapi, head: countapiGet, body)
      add(prefix + "/:key", kind, .countapi, head: countapiGet, body)
    }
    let createHead: RouteBody = { try await $0.countapiCreateHead($1) }
    add("/create", .write, .countapi, head: createHead) { try await $0.countapiCreate($1) }
    add("/stats", .read, .countapi) { try await $0.countapiStats($1) }

    // counterapi.dev v1; a HEAD on a writing route is answered as the row's read.
    let counterapiGet: RouteBody = { try await $0.counterapiGet($1) }
    add("/v1/:ns/:name", .read, .counterapi, counterapiGet)
    add("/v1/:ns/:name/up", .write, .counterapi, head: counterapiGet) {
      try await $0.counterapiStep($1, up: true)
    }
    add("/v1/:ns/:name/down", .write, .counterapi, head: counterapiGet) {
      try await $0.counterapiStep($1, up: false)
    }
    add("/v1/:ns/:name/set", .write, .counterapi, head: counterapiGet) {
      try await $0.counterapiSet($1)
    }

    // Ours.
    add("/counts/:ns", .read, .countapi) { try await $0.batchCounts($1) }
    add("/healthz", nil, .countapi) { await $0.health($1) }
    add("/metrics", nil, .countapi) { await $0.metricsText($1) }

    router.notFound = { request in
      await run(
        request, route: "unmatched", kind: .read, dialect: .countapi,
        body: { _, _ in Dialect.countapi.error(404, "not found") }, routes: routes,
        limiter: limiter)
    }
    return router
  }

  /// The answer to a HEAD on a writing route that names no read to answer for it.
  static func headNotAllowed(_ dialect: Dialect) -> Reply {
    var reply = dialect.error(405, "HEAD is not allowed here: this route writes")
    reply.headers.append((name: "Allow", value: "GET, OPTIONS"))
    return reply
  }

  /// Runs one route body with everything every route shares.
  private static func run(
    _ request: HTTPRequest, route: String, kind: RateLimiter.Kind?, dialect: Dialect,
    body: RouteBody, routes: CounterRoutes, limiter: RateLimiter
  ) async -> HTTPResponse {
    let start = RateLimiter.now()
    let (callback, refusal) = admit(
      request, kind: kind, dialect: dialect, routes: routes, limiter: limiter, now: start)
    var reply: Reply
    if let refusal {
      reply = refusal
    } else {
      do {
        reply = try await body(routes, request)
      } catch {
        reply = answer(error, request, dialect: dialect, routes: routes, read: kind == .read)
      }
    }
    return complete(request, reply, callback: callback, route: route, start: start, routes: routes)
  }

  /// Runs an immediate body (on the I/O thread) with everything every route shares; nil when
  /// the body passes, and then nothing was counted, limited or logged.
  static func runImmediately(
    _ request: HTTPRequest, route: String, kind: RateLimiter.Kind, dialect: Dialect,
    body: ImmediateBody, routes: CounterRoutes, limiter: RateLimiter
  ) -> HTTPResponse? {
    let start = RateLimiter.now()
    guard let reply = body(routes, request) else { return nil }
    let (callback, refusal) = admit(
      request, kind: kind, dialect: dialect, routes: routes, limiter: limiter, now: start)
    return complete(
      request, refusal ?? reply, callback: callback, route: route, start: start, routes: routes)
  }

  /// Runs a vote planned on the I/O thread with everything every route shares: refused or
  /// answered at once, or handed to the store's writer with the other votes of this round
  /// (`batcher`) and answered through `responder` once durable; nil when the plan passes
  /// (nothing was counted, limited or logged).
  static func runImmediateWrite(
    _ request: HTTPRequest, route: String, dialect: Dialect, body: ImmediateWriteBody,
    routes: CounterRoutes, limiter: RateLimiter, responder: HTTPResponder, batcher: VoteBatcher
  ) -> HTTPImmediateAnswer? {
    let start = RateLimiter.now()
    guard let plan = body(routes, request) else { return nil }
    let (callback, refusal) = admit(
      request, kind: .write, dialect: dialect, routes: routes, limiter: limiter, now: start)
    if let refusal {
      return .response(
        complete(request, refusal, callback: callback, route: route, start: start, routes: routes))
    }
    // The plan taken apart, not copied into a pair first.
    switch consume plan {
    case .reply(let reply):
      return .response(
        complete(request, reply, callback: callback, route: route, start: start, routes: routes))
    case .write(let planned):
      if planned.creates,
        let refusal = routes.creations.take(
          request, dialect, namespace: planned.mutation.namespace, key: planned.mutation.key,
          now: start)
      {
        return .response(
          complete(
            request, refusal, callback: callback, route: route, start: start, routes: routes))
      }
      batcher.add(
        planned.mutation,
        VoteBatcher.Pending(
          request: request, route: route, dialect: dialect, callback: callback, start: start,
          answer: planned.answer, responder: responder))
      return .deferred
    }
  }

  /// The JSONP callback to wrap the answer in, and the answer that refuses the request
  /// instead of running its body: a bad callback (400) or a client over its rate limit (429)
  /// at `now` (when the request's handling began). A request with the admin token
  /// (`Authorization: Bearer T` or `?token=T`) is never over its limit.
  private static func admit(
    _ request: HTTPRequest, kind: RateLimiter.Kind?, dialect: Dialect, routes: CounterRoutes,
    limiter: RateLimiter, now: Double
  ) -> (callback: String?, refusal: Reply?) {
    let callback = request.query("callback")
    if let name = callback, !NameRules.isValidCallback(name) {
      return (
        nil,
        dialect.error(
          400, "invalid callback: use 1 to 64 characters of letters, digits, _, $ and dots")
      )
    }
    // A request with the admin token is not limited; one with a wrong token is, more
    // (RateLimiter.take(client:kind:token:now:)). Without a token: the same as before.
    if let kind, !limiter.isUnlimited(kind),
      let refusal = limiter.take(
        client: clientAddress(request, trustProxy: routes.configuration.trustProxy), kind: kind,
        token: limiterToken(request, configuration: routes.configuration, query: true), now: now)
    {
      let retry = refusal.retry
      var reply = dialect.error(
        429,
        refusal.wrongTokens
          ? "too many wrong admin tokens from this address: retry in \(retry) s"
          : "too many requests: retry in \(retry) s")
      reply.headers.append((name: "Retry-After", value: String(retry)))
      // The server closes the connection after this answer: a client over its limit
      // cannot hold connections open by keeping them busy with refused requests.
      reply.headers.append((name: "Connection", value: "close"))
      return (callback, reply)
    }
    return (callback, nil)
  }

  /// The response for `reply`: wrapped for JSONP, with the common headers, counted and logged.
  static func complete(
    _ request: HTTPRequest, _ reply: Reply, callback: String?, route: String, start: Double,
    routes: CounterRoutes
  ) -> HTTPResponse {
    let response = response(request, reply, callback: callback, routes: routes)
    finish(
      request, response, status: reply.status, route: route, start: start,
      metrics: routes.metrics,
      configuration: routes.configuration)
    return response
  }

  /// The content type of a JSONP answer.
  static let javascriptType = "application/javascript; charset=utf-8"

  /// The response for `reply`, wrapped for JSONP and with the common headers, not yet
  /// counted or logged (see ``complete(_:_:callback:route:start:routes:)``).
  static func response(
    _ request: HTTPRequest, _ reply: Reply, callback: String?, routes: CounterRoutes
  ) -> HTTPResponse {
    let configuration = routes.configuration
    var response: HTTPResponse
    let wrapped = callback != nil && reply.wrappable
    let contentType = wrapped ? javascriptType : reply.contentType
    let (status, body) = wrapped ? jsonp(reply, callback: callback!) : (reply.status, reply.body)
    if reply.headers.isEmpty {
      // Nearly every answer: the common headers go in once, in order, without lookups, and
      // already encoded when an answer with the same X-Path went out before.
      response = HTTPResponse(
        status: status,
        headers: routes.headerCache.headers(xPathSource(request), contentType: contentType),
        body: Array(body.utf8))
    } else {
      response = HTTPResponse(status: status, contentType: contentType, text: body)
      for header in reply.headers {
        response.headers.replaceOrAdd(name: header.name, value: header.value)
      }
      decorate(&response, xPath: xPath(request), origin: configuration.corsOrigin)
    }
    return response
  }

  /// `reply` wrapped in a call of `callback`, and the status to send it with.
  ///
  /// A browser runs a `<script>` only when its answer's status is a success, so a JSONP
  /// answer is always sent as 200, as countapi's were ("JSONP requests will never fail, they
  /// will include the HTTP code in the response"): an error's status goes into its body as
  /// `"status"`, before the error's own members (no error body has a member of that name).
  /// `/**/cb({"status":404,"value":null});`
  static func jsonp(_ reply: Reply, callback: String) -> (status: Int, body: String) {
    var body = reply.body
    if !(200..<300).contains(reply.status), body.hasPrefix("{") {
      let rest = body.dropFirst()
      body = "{\"status\":\(reply.status)" + (rest.hasPrefix("}") ? "" : ",") + rest
    }
    return (200, "/**/\(callback)(\(body));")
  }

  /// The answer to `error`, thrown by the route body for `request` (a read when `read`), with
  /// its side effects:
  /// a store failure is counted and logged (throttled: the first of a burst, then a summary
  /// at most once per ``CounterServiceConfiguration/storeErrorLogInterval``), an unexpected
  /// error logged.
  static func answer(
    _ error: any Error, _ request: HTTPRequest, dialect: Dialect, routes: CounterRoutes,
    read: Bool = false
  ) -> Reply {
    let answer = ServiceError.answer(for: error, read: read)
    if let error = answer as? ServiceError {
      if error.isStoreFailure {
        let line =
          "store error on \(request.method) \(request.path): \(error.cause ?? error.message)"
        for line in routes.metrics.recordStoreError(line) { routes.configuration.log(line) }
      } else if error.isUnexpected {
        routes.configuration.log(
          "unexpected error on \(request.method) \(request.path): \(error.cause ?? "")")
      }
    }
    return answer.reply(in: dialect)
  }

  /// `/ns/key` for keyed routes (the namespace `default` when omitted), else the path.
  private static func xPath(_ request: HTTPRequest) -> String {
    xPathSource(request).text
  }

  /// What ``xPath(_:)`` is made of, without making it.
  private static func xPathSource(_ request: HTTPRequest) -> CommonHeaderCache.XPath {
    guard let key = request.parameter("key") ?? request.parameter("name") else {
      return .path(request.path)
    }
    return .counter(
      namespace: request.parameter("ns") ?? CounterRoutes.defaultNamespace, key: key)
  }
}
