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

  /// What is wrong with `target`'s percent-encoding, or nil: an escape that is not `%` and two
  /// hex digits (`%2`, `%zz`), or escapes that decode to bytes that are not UTF-8 (`%ff`).
  /// Decoded anyway, the first stays as written and the second becomes U+FFFD, so
  /// `PUT …/features/ref/%ff` and `…/ref/%fe` wrote one feature with the ref "\u{FFFD}".
  static func malformedTarget(_ target: String) -> String? {
    var decoded: [UInt8] = []
    var inQuery = false
    var bytes = target.utf8.makeIterator()
    func part() -> String { inQuery ? "the query" : "the path" }
    func hex(_ byte: UInt8?) -> UInt8? {
      switch byte {
      case let b? where b >= 0x30 && b <= 0x39: b - 0x30
      case let b? where b >= 0x41 && b <= 0x46: b - 0x41 + 10
      case let b? where b >= 0x61 && b <= 0x66: b - 0x61 + 10
      default: nil
      }
    }
    func utf8Problem() -> String? {
      String(bytes: decoded, encoding: .utf8) == nil
        ? "\(part()) has percent-escapes that are not UTF-8" : nil
    }
    while let byte = bytes.next() {
      if byte == UInt8(ascii: "?") && !inQuery {
        if let problem = utf8Problem() { return problem }
        decoded.removeAll()
        inQuery = true
      } else if byte == UInt8(ascii: "%") {
        guard let high = hex(bytes.next()), let low = hex(bytes.next()) else {
          return "\(part()) has a % that is not followed by two hex digits"
        }
        decoded.append(high << 4 | low)
      } else {
        decoded.append(byte)
      }
    }
    return utf8Problem()
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
    if let problem = Self.malformedTarget(request.target) {
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
