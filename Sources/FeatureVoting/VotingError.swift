import Foundation

/// Why a vote, an unvote or a read failed.
///
/// A struct with static members rather than an enum, so that new kinds of failure break no
/// caller. Switch on ``kind``; the other properties carry what the failure site knew.
///
///     do {
///       let count = try await voter.castVote(for: feature)
///     } catch where error.kind == .rateLimited {
///       retry(after: error.retryAfter ?? 60)
///     } catch {
///       show(error.description)
///     }
///
/// Inside a closure (a `Task { }` in a button's action) Swift 6 types a `do` block's error as
/// `any Error`; write `do throws(VotingError) { … }` there to read ``kind`` in the `catch`.
public struct VotingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of failure.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// The server could not be reached: no network, the host unknown, the connection refused
    /// or lost. Votes failing this way go into the offline queue. Other URL loading failures
    /// (App Transport Security, TLS, redirects) are ``invalidRequest``: waiting does not cure
    /// them.
    public static let offline = Kind("offline")
    /// The server did not answer within the request's timeout.
    public static let timedOut = Kind("timed out")
    /// The server answered 429; ``VotingError/retryAfter`` holds its `Retry-After`, if given.
    public static let rateLimited = Kind("rate limited")
    /// The server refused the call (a 4xx other than 429); ``VotingError/reason`` holds the
    /// reason it gave.
    public static let refused = Kind("refused")
    /// The server failed (a 5xx); ``VotingError/status`` holds the status.
    public static let serverError = Kind("server error")
    /// The server answered 2xx with something the dialect does not promise (an HTML page, a
    /// body of another dialect, no number where one belongs).
    public static let badAnswer = Kind("bad answer")
    /// The call could not be made as asked: a URL or key that cannot be built, a dialect
    /// without the route, a cancelled call, or a URL loading failure that is not being
    /// offline (App Transport Security refusing an `http://` URL, a TLS or certificate failure,
    /// too many redirects, a redirect to nowhere, a cancelled authentication, a body over the
    /// limit); the message names the `URLError`.
    public static let invalidRequest = Kind("invalid request")
    /// A local file (voter id, voted state, offline queue, a ``FileVoter`` file) could not be
    /// read or written, or is damaged; ``VotingError/file`` names it.
    public static let storage = Kind("storage")
    /// A voter that only answers nil or 0 failed without saying why.
    public static let unexplained = Kind("unexplained")

    /// The kind's name.
    public var description: String { name }
  }

  /// The kind of failure.
  public let kind: Kind
  /// What failed, in words, with the context of the failure site.
  public let message: String
  /// The HTTP status, when the server answered.
  public let status: Int?
  /// The server's `Retry-After`, in seconds, for ``Kind/rateLimited`` (and 503s that send one).
  public let retryAfter: TimeInterval?
  /// The reason the server gave for a refusal (its `error` or `message` field, or the body).
  public let reason: String?
  /// The file involved, for ``Kind/storage``.
  public let file: String?

  private init(
    _ kind: Kind, _ message: String, status: Int? = nil, retryAfter: TimeInterval? = nil,
    reason: String? = nil, file: String? = nil
  ) {
    self.kind = kind
    self.message = message
    self.status = status
    self.retryAfter = retryAfter
    self.reason = reason
    self.file = file
  }

  /// The server could not be reached; `detail` says how (the system's own message).
  public static func offline(_ detail: String) -> VotingError {
    VotingError(.offline, "offline: \(detail)")
  }

  /// No answer within `seconds` from `url`.
  public static func timedOut(after seconds: TimeInterval, url: String) -> VotingError {
    VotingError(.timedOut, "no answer from \(url) within \(seconds) s")
  }

  /// No whole answer in time; `detail` says from where and within how long.
  public static func timedOut(_ detail: String) -> VotingError {
    VotingError(.timedOut, "timed out: \(detail)")
  }

  /// A 429, with the server's `Retry-After` in seconds when it sent one.
  public static func rateLimited(retryAfter: TimeInterval?, url: String) -> VotingError {
    let wait = retryAfter.map { "retry in \($0.formatted) s" } ?? "no Retry-After given"
    return VotingError(
      .rateLimited, "rate limited by \(url): \(wait)", status: 429, retryAfter: retryAfter)
  }

  /// A refusal (4xx) with the server's reason.
  public static func refused(status: Int, reason: String, url: String) -> VotingError {
    VotingError(.refused, "\(url) refused (\(status)): \(reason)", status: status, reason: reason)
  }

  /// A server failure (5xx), with an excerpt of its body.
  public static func serverError(
    status: Int, detail: String, url: String, retryAfter: TimeInterval? = nil
  ) -> VotingError {
    VotingError(
      .serverError, "\(url) failed (\(status)): \(detail)", status: status,
      retryAfter: retryAfter)
  }

  /// A 2xx answer that is not what the dialect promises.
  public static func badAnswer(_ detail: String, status: Int? = nil, url: String) -> VotingError {
    VotingError(.badAnswer, "\(badAnswerPrefix)\(url): \(detail)", status: status)
  }

  /// What every bad answer's message starts with.
  static let badAnswerPrefix = "unexpected answer from "

  /// A bad answer made again from its `message` ("unexpected answer from URL: DETAIL", as
  /// ``badAnswer(_:status:url:)`` and VoteFirstAPI's client write it), with the same
  /// message; a message of another form becomes the detail of an answer from `url`.
  static func badAnswer(message: String, status: Int?, orFrom url: String) -> VotingError {
    guard message.hasPrefix(badAnswerPrefix), let colon = message.range(of: ": ") else {
      return .badAnswer(message, status: status, url: url)
    }
    let named = message[
      message.index(message.startIndex, offsetBy: badAnswerPrefix.count)..<colon.lowerBound]
    return .badAnswer(String(message[colon.upperBound...]), status: status, url: String(named))
  }

  /// A call that cannot be made as asked.
  public static func invalidRequest(_ detail: String) -> VotingError {
    VotingError(.invalidRequest, detail)
  }

  /// The refusal of a vote for the finished feature `id`, the same from every voter.
  static func finished(_ id: String) -> VotingError {
    .invalidRequest("'\(id)' is finished: finished features take no votes")
  }

  /// A local file that cannot be read, written or understood.
  public static func storage(file: String, _ detail: String) -> VotingError {
    VotingError(.storage, "\(file): \(detail)", file: file)
  }

  /// A failure a plain voter did not explain.
  public static func unexplained(_ detail: String) -> VotingError {
    VotingError(.unexplained, detail)
  }

  /// This failure, its message saying it was the last of `attempts` (a retried call's
  /// message otherwise names one attempt's timeout, and the call took all of them).
  func afterAttempts(_ attempts: Int) -> VotingError {
    guard attempts > 1 else { return self }
    return VotingError(
      kind, message + " (the last of \(attempts) attempts)", status: status,
      retryAfter: retryAfter, reason: reason, file: file)
  }

  /// The message.
  public var description: String { message }
}

extension TimeInterval {
  /// Whole seconds without a fraction, else the number as Swift prints it.
  fileprivate var formatted: String {
    rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
  }
}
