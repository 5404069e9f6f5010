import Foundation
import VoteFirstAPI

/// One HTTP answer, whatever its status.
public struct TransportResponse: Sendable, Equatable {
  /// The status code.
  public var status: Int
  /// Header fields, names in lower case.
  public var headers: [String: String]
  /// The body.
  public var body: Data

  /// Creates an answer; header names are stored in lower case.
  ///
  /// - Parameters:
  ///   - status: the status code.
  ///   - headers: header fields, any case.
  ///   - body: the body.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    var lowered: [String: String] = [:]
    for (name, value) in headers { lowered[name.lowercased()] = value }
    self.headers = lowered
    self.body = body
  }

  /// The value of header `name`, case-insensitively.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }

  /// `Retry-After` in seconds, read by ``VoteFirstAPI/RetryAfter``: a number of seconds, or an
  /// HTTP date counted from now (0 when it is past); nil when absent or neither.
  public var retryAfter: TimeInterval? {
    RetryAfter.seconds(header("retry-after"))
  }
}
