import HTTPServer
import WebBoard

/// The web board's pages and assets (`/b/…`, `/assets/…`) as the service serves them: the
/// read rate limit per client address, the service's metrics and access log, and the pages'
/// own headers (no CORS, their own caching; see docs/web-board.md).
struct WebBoardFront: Sendable {
  let router: Router
  let configuration: CounterServiceConfiguration
  let limiter: RateLimiter
  let metrics: ServiceMetrics

  init(context: VoteFirstContext) {
    self.router = WebBoardRoutes(source: VoteFirstWebSource(context: context)).router
    self.configuration = context.configuration
    self.limiter = context.limiter
    self.metrics = context.metrics
  }

  /// Answers one request for a web board path.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    let start = RateLimiter.now()
    var response: HTTPResponse
    let client = CounterService.clientAddress(request, trustProxy: configuration.trustProxy)
    if request.method != .get && request.method != .head {
      response = WebBoardRoutes.methodNotAllowed()
    } else if let refusal = limiter.take(
      client: client, kind: .read,
      token: CounterService.limiterToken(request, configuration: configuration, query: false))
    {
      response = WebBoardRoutes.tooManyRequests(retryAfter: refusal.retry)
    } else {
      response = await router.respond(to: request)
    }
    CounterService.finish(
      request, response, route: "web", start: start, metrics: metrics,
      configuration: configuration)
    return response
  }
}
