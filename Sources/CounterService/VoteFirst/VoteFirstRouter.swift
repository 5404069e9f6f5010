import Foundation
import HTTPServer
import VoteFirstAPI
import VoteStore

/// The VoteFirst board API under `/api/v1/:project` (docs/votefirst-api.md), on the counter
/// store and a ``BoardStore`` beside it.
///
/// Every call of ``VoteFirstContract/Operation`` is routed here; each answer carries the
/// counter routes' CORS headers, draws on the same rate limits, and is counted in the same
/// metrics. Failures are the contract's `{"error":{"code","message","field"}}`.
final class VoteFirstRouter: Sendable {
  let context: VoteFirstContext
  private let router: Router

  init(context: VoteFirstContext) {
    self.context = context
    var router = Router()
    for operation in VoteFirstContract.Operation.allCases {
      router.on(HTTPMethod(rawValue: operation.method), operation.routePattern) { request in
        await context.run(operation, request)
      }
    }
    router.notFound = { request in
      await context.fail(
        request, route: "vf.unmatched",
        VoteFirstFailure(404, VoteFirstContract.ErrorCode.notFound, "no such route"))
    }
    self.router = router
  }

  /// Whether `path` belongs to this API.
  static func handles(_ path: String) -> Bool {
    path == VoteFirstContract.prefix || path.hasPrefix(prefixAndSlash)
  }

  /// The prefix and the `/` after it, made once (this is asked of every request).
  private static let prefixAndSlash = VoteFirstContract.prefix + "/"

  /// Answers one request under the prefix: preflights, routes, 405s in the contract's shape.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    if request.method == .options {
      let start = RateLimiter.now()
      var response = HTTPResponse(status: 204)
      CounterService.decorate(
        &response, xPath: request.path, origin: context.configuration.corsOrigin)
      response.headers.replaceOrAdd(
        name: "Access-Control-Allow-Methods", value: "GET, HEAD, POST, PUT, DELETE, OPTIONS")
      response.headers.replaceOrAdd(
        name: "Access-Control-Allow-Headers",
        value: "Authorization, X-Voter-ID, X-API-Key, Content-Type")
      response.headers.replaceOrAdd(name: "Access-Control-Max-Age", value: "86400")
      CounterService.finish(
        request, response, route: "vf.OPTIONS", start: start, metrics: context.metrics,
        configuration: context.configuration)
      return response
    }
    // Decoded anyway, `PUT …/features/ref/%ff` and `…/ref/%fe` wrote one feature with the
    // ref U+FFFD.
    if let problem = request.percentEncodingProblem {
      return await context.fail(
        request, route: "vf.unmatched",
        .invalidParameter(
          problem.hasPrefix("the query") ? "query" : "path",
          "the request target is malformed: \(problem)"))
    }
    let response = await router.respond(to: request)
    guard response.status == 405, let allow = response.headers["Allow"] else { return response }
    // The router's own 405, in the contract's shape.
    var failure = VoteFirstFailure(
      405, VoteFirstContract.ErrorCode.methodNotAllowed,
      "\(request.method) is not allowed on \(request.path); allowed: \(allow)")
    failure.headers.append((name: "Allow", value: allow + ", OPTIONS"))
    return await context.fail(request, route: "vf.unmatched", failure)
  }
}
