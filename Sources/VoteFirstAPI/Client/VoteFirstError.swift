import Foundation

/// Why a VoteFirst call failed.
///
/// A struct with a kind, so new kinds of failure break no caller. ``reason`` carries the
/// server's own `{"error":{"code","message","field"}}` when it sent one.
public struct VoteFirstError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// The server refused the call for a reason it names (voting off, a value too long, …).
    public static let refused = Kind("refused")
    /// The call needs a key or token that was missing or wrong (401, or 403 `forbidden`).
    public static let unauthorized = Kind("unauthorized")
    /// What the call names does not exist (404).
    public static let notFound = Kind("not found")
    /// Too many calls: wait ``VoteFirstError/retryAfter`` seconds (429).
    public static let rateLimited = Kind("rate limited")
    /// The server could not be reached: no network, the host unknown, the connection refused
    /// or lost.
    public static let offline = Kind("offline")
    /// No whole answer within ``VoteFirstClientConfiguration/timeout``: the call may or may
    /// not have reached the server.
    public static let timedOut = Kind("timed out")
    /// The server failed (5xx); the call may be retried.
    public static let serverFailure = Kind("server failure")
    /// The answer was not what the contract says (not JSON, wrong shape, not HTTP).
    public static let badAnswer = Kind("bad answer")
    /// The call could not be made: a URL that cannot be built, a cancelled call, or a loading
    /// failure that waiting does not cure (App Transport Security, TLS or certificates,
    /// redirects, authentication), named in ``VoteFirstError/message``.
    public static let invalidRequest = Kind("invalid request")

    /// The kind's name.
    public var description: String { name }
  }

  /// The kind of failure.
  public var kind: Kind
  /// The HTTP status, when an answer arrived.
  public var status: Int?
  /// The server's error body, when it sent one: its code says why (`voting_disabled_stage`).
  public var reason: APIErrorBody?
  /// Seconds to wait before retrying, from `Retry-After` given in seconds or as an HTTP date
  /// (read by ``RetryAfter/wholeSeconds(_:limit:now:)``; 0 for a past date).
  public var retryAfter: Int?
  /// A sentence saying what failed.
  public var message: String

  /// Creates an error.
  public init(
    _ kind: Kind, message: String, status: Int? = nil, reason: APIErrorBody? = nil,
    retryAfter: Int? = nil
  ) {
    self.kind = kind
    self.message = message
    self.status = status
    self.reason = reason
    self.retryAfter = retryAfter
  }

  /// The server's error code, when it sent one.
  public var code: String? { reason?.code }

  /// `kind: message`.
  public var description: String { "\(kind): \(message)" }

  /// The error for a non-2xx answer, from its status, headers and body.
  static func answer(status: Int, body: Data, retryAfter: Int?, url: String) -> VoteFirstError {
    let reason = try? VoteFirstCoding.decode(APIErrorBody.self, from: body)
    let message = reason.map { "\($0.code): \($0.message)" } ?? "HTTP \(status) from \(url)"
    let kind: Kind
    switch status {
    case 401: kind = .unauthorized
    case 403:
      kind = reason?.code == VoteFirstContract.ErrorCode.forbidden ? .unauthorized : .refused
    case 404: kind = .notFound
    case 429: kind = .rateLimited
    case 500...599: kind = .serverFailure
    case 400...499: kind = .refused
    default: kind = .badAnswer
    }
    if reason == nil && kind != .serverFailure && kind != .rateLimited {
      return VoteFirstError(
        .badAnswer, message: "HTTP \(status) without the contract's error body from \(url)",
        status: status, retryAfter: retryAfter)
    }
    return VoteFirstError(
      kind, message: message, status: status, reason: reason, retryAfter: retryAfter)
  }
}
