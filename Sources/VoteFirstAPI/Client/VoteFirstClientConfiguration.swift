import Foundation

/// Where a ``VoteFirstHTTPClient`` sends its calls, and with which credentials.
public struct VoteFirstClientConfiguration: Sendable {
  /// The server's base URL (`https://votes.example.com`); routes are under `/api/v1/`.
  public var baseURL: URL
  /// The project (the counters' namespace).
  public var project: String
  /// The API key a hosted service needs, sent as `X-API-Key`; nil sends none.
  public var apiKey: String?
  /// The admin token for admin calls, sent as `Authorization: Bearer`; nil sends none.
  public var adminToken: String?
  /// The seconds one whole call may take, from sending the request to the last byte of the
  /// answer (not only the silence between packets); past it the call fails with
  /// ``VoteFirstError/Kind/timedOut``. Default 30; NaN or negative expires at once, at most
  /// ``VoteFirstHTTPClient/longestTimeout``.
  public var timeout: TimeInterval
  /// The most bytes one answer's body may have; a longer answer fails the call with
  /// ``VoteFirstError/Kind/badAnswer`` and is not read further, so a server that sends
  /// without end cannot take the app's memory. Default ``defaultMaximumAnswerBytes``;
  /// negative is 0.
  public var maximumAnswerBytes: Int

  /// The default ``maximumAnswerBytes``: 64 MiB, far above a board of 10,000 features.
  public static let defaultMaximumAnswerBytes = LoadingSession.defaultVoteFirstLimit

  /// Creates a configuration.
  public init(
    baseURL: URL, project: String, apiKey: String? = nil, adminToken: String? = nil,
    timeout: TimeInterval = 30, maximumAnswerBytes: Int = defaultMaximumAnswerBytes
  ) {
    self.baseURL = baseURL
    self.project = project
    self.apiKey = apiKey
    self.adminToken = adminToken
    self.timeout = timeout
    self.maximumAnswerBytes = maximumAnswerBytes
  }
}
