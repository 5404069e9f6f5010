import Foundation
import HTTPServer

extension CounterService {
  /// The admin token `request` presents, or nil: `T` of `Authorization: Bearer T` (the
  /// scheme in any case, spaces around `T` dropped); with `query`, else `?token=T`. Another
  /// scheme (`Basic`) is no token.
  static func presentedToken(_ request: HTTPRequest, query: Bool) -> String? {
    bearerToken(request.headers) ?? (query ? request.query("token") : nil)
  }

  /// The token of `request` for ``RateLimiter/take(client:kind:token:now:)``: nil when the
  /// server has no admin token or the request presents none (``presentedToken(_:query:)``).
  ///
  /// On a request without an `Authorization` field (or `?token=`) this is a look through its
  /// few header fields and query items, with no allocation and no hashing.
  static func limiterToken(
    _ request: HTTPRequest, configuration: CounterServiceConfiguration, query: Bool
  ) -> RateLimiter.Token? {
    guard let expected = configuration.adminToken,
      let presented = presentedToken(request, query: query)
    else { return nil }
    return RateLimiter.Token(presented: presented, expected: expected)
  }
}
