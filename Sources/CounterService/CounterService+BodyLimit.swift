import Foundation
import HTTPServer
import VoteFirstAPI

extension CounterService {
  /// The body limit of the VoteFirst admin calls that take a whole roadmap in one request
  /// (`POST …/features/batch`, `POST …/import`): 32 MiB, room for a batch of 10,000 features.
  public static let adminImportBodyBytes = 32 << 20

  /// The calls that get ``adminImportBodyBytes``, with the admin token.
  static let largeBodyOperations: [VoteFirstContract.Operation] = [.batchFeatures, .import]

  /// The body-limit decider for `HTTPServerConfiguration.bodyLimit`: ``adminImportBodyBytes``
  /// for the VoteFirst batch upsert and import calls that carry the admin token, nil (the
  /// server's default, 1 MiB) for every other request.
  ///
  /// The token is read as the VoteFirst API reads it (`Authorization: Bearer TOKEN`) and
  /// compared in constant time. A request without it, with a wrong one, or on another route is
  /// refused with 413 from its `Content-Length` before any body byte is read, so an anonymous
  /// client can make the server hold no more than the default per connection. A service
  /// without an admin token or without boards grants nothing larger.
  ///
  /// Give it together with `bodyLimitCeiling` at least ``adminImportBodyBytes``:
  ///
  /// ```swift
  /// configuration.bodyLimit = service.bodyLimit
  /// configuration.bodyLimitCeiling = CounterService.adminImportBodyBytes
  /// ```
  public var bodyLimit: @Sendable (HTTPRequestHead) -> Int? {
    guard voteFirst != nil, let token = configuration.adminToken else { return { _ in nil } }
    return { head in CounterService.bodyLimit(for: head, adminToken: token) }
  }

  /// ``adminImportBodyBytes`` when `head` is a large-body call carrying `adminToken`, else nil.
  static func bodyLimit(for head: HTTPRequestHead, adminToken: String) -> Int? {
    guard isLargeBodyCall(head), let presented = bearerToken(head.headers),
      ConstantTime.equals(presented, adminToken)
    else { return nil }
    return adminImportBodyBytes
  }

  /// Whether `head` is routed to one of ``largeBodyOperations``, matched as the router will.
  static func isLargeBodyCall(_ head: HTTPRequestHead) -> Bool {
    let operations = largeBodyOperations.filter { $0.method == head.method.rawValue }
    guard !operations.isEmpty, VoteFirstRouter.handles(head.path) else { return false }
    let parts = head.pathSegments
    return operations.contains { operation in
      let pattern = operation.routePattern.split(separator: "/")
      return pattern.count == parts.count
        && zip(pattern, parts).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
    }
  }

  /// The token of `Authorization: Bearer TOKEN`, or nil without one.
  static func bearerToken(_ headers: HTTPHeaders) -> String? {
    guard let header = headers[VoteFirstContract.Header.authorization] else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }
}
