import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ``VoteFirstClient`` over HTTP: docs/votefirst-api.md through `URLSession`.
///
/// Every call sends `X-Voter-ID` (this client's voter) and, when configured, `X-API-Key`;
/// admin calls (in `VoteFirstHTTPClient+Admin.swift`) send the admin token. Caching is off:
/// counts never come from a cache.
///
/// ``VoteFirstClientConfiguration/timeout`` is a deadline for the whole call, from sending the
/// request to the last byte of the answer (URLSession's own `timeoutInterval` only limits the
/// silence between packets): past it the call is cancelled and fails with
/// ``VoteFirstError/Kind/timedOut``. Failures to get an answer: ``VoteFirstError/Kind/offline``
/// only when the server could not be reached (no network, the host unknown, the connection
/// refused or lost), ``VoteFirstError/Kind/timedOut`` past the deadline,
/// ``VoteFirstError/Kind/invalidRequest`` for a cancelled call and for every other loading
/// failure (App Transport Security, TLS and certificates, redirects, authentication, a body
/// too long), named in the message; answers the contract does not allow, and answers longer
/// than ``VoteFirstClientConfiguration/maximumAnswerBytes``, are
/// ``VoteFirstError/Kind/badAnswer``.
public final class VoteFirstHTTPClient: VoteFirstClient {
  /// Where calls go.
  public let configuration: VoteFirstClientConfiguration
  private let loading: LoadingSession
  private let voter: VoterIDBox

  /// Creates a client; `voterID` nil starts with a random one (keep it stable per install to
  /// make votes idempotent across launches).
  ///
  /// Without a `session`, calls go through an ephemeral session without a cache whose own
  /// silence limit is lifted, so that only ``VoteFirstClientConfiguration/timeout`` ends a
  /// call, and an answer is cancelled as soon as it passes
  /// ``VoteFirstClientConfiguration/maximumAnswerBytes``. A session of your own keeps its
  /// configuration and its delegate: a call silent for its `timeoutIntervalForRequest` (60 s
  /// by default) fails with ``VoteFirstError/Kind/timedOut`` even when the configured timeout
  /// is longer (on Linux, whatever the request's `timeoutInterval`), and an answer is checked
  /// against the limit only once it has been read whole.
  public init(
    configuration: VoteFirstClientConfiguration, voterID: String? = nil,
    session: URLSession? = nil
  ) {
    self.configuration = configuration
    self.voter = VoterIDBox(voterID ?? UUID().uuidString)
    loading = LoadingSession(session: session, maximumBytes: configuration.maximumAnswerBytes)
  }

  /// The voter id calls are made with.
  public var voterID: String { voter.current }

  // MARK: VoteFirstClient

  /// `GET …/board[?board=SLUG]`.
  public func board(slug: String?) async throws(VoteFirstError) -> BoardSnapshot {
    try await send(
      .board,
      query: slug.map { [URLQueryItem(name: VoteFirstContract.Query.board, value: $0)] }
        ?? [])
  }

  /// `GET …/features`.
  public func features(_ query: FeatureQuery) async throws(VoteFirstError) -> FeaturePage {
    try await send(.features, query: VoteFirstContract.queryItems(query))
  }

  /// `GET …/features/:id`.
  public func feature(id: Int) async throws(VoteFirstError) -> Feature {
    try await send(.feature, parameter: String(id))
  }

  /// `POST …/features/:id/vote`.
  public func upvote(featureID: Int) async throws(VoteFirstError) -> VoteState {
    try await send(.vote, parameter: String(featureID))
  }

  /// `DELETE …/features/:id/vote`.
  public func unvote(featureID: Int) async throws(VoteFirstError) -> VoteState {
    try await send(.unvote, parameter: String(featureID))
  }

  /// `GET …/releases`.
  public func releases() async throws(VoteFirstError) -> [Release] {
    let list: ReleaseList = try await send(.releases)
    return list.releases
  }

  /// `GET …/releases/:id`.
  public func release(id: Int) async throws(VoteFirstError) -> Release {
    try await send(.release, parameter: String(id))
  }

  /// `POST …/suggestions`.
  public func submit(_ suggestion: SuggestionDraft) async throws(VoteFirstError)
    -> SuggestionReceipt
  {
    try await send(.submitSuggestion, body: suggestion)
  }

  /// Starts voting as a new random voter id, in this client only: an id the app keeps (in
  /// FeatureVoting's `VoterIdentity` file, say) is not changed, so a client made from it at
  /// the next launch votes as the forgotten voter again unless the app forgets that id too.
  public func forget() async {
    voter.replace(with: UUID().uuidString)
  }

  // MARK: Transport

  /// Sends one call of the contract and decodes its answer as `T`.
  func send<T: Decodable>(
    _ operation: VoteFirstContract.Operation, parameter: String? = nil,
    query: [URLQueryItem] = [], body: (some Encodable)? = Optional<Int>.none
  ) async throws(VoteFirstError) -> T {
    let answer = try await exchange(operation, parameter: parameter, query: query, body: body)
    do {
      return try VoteFirstCoding.decode(T.self, from: answer.data)
    } catch {
      // A captive portal's page, a proxy's, another API's: say what came and from where.
      let got =
        AnswerText.shapeProblem(error).map { "JSON of another shape (\($0))" }
        ?? AnswerText.excerpt(answer.data)
      throw VoteFirstError(
        .badAnswer,
        message:
          "unexpected answer from \(answer.url) to \(operation.rawValue) (HTTP \(answer.status)): "
          + "expected the VoteFirst API's JSON, got \(got)",
        status: answer.status)
    }
  }

  /// Sends one call whose answer has no body (204).
  func sendWithoutAnswer(
    _ operation: VoteFirstContract.Operation, parameter: String? = nil,
    body: (some Encodable)? = Optional<Int>.none
  ) async throws(VoteFirstError) {
    _ = try await exchange(operation, parameter: parameter, query: [], body: body)
  }

  private func exchange(
    _ operation: VoteFirstContract.Operation, parameter: String?, query: [URLQueryItem],
    body: (some Encodable)?
  ) async throws(VoteFirstError) -> (data: Data, status: Int, url: String) {
    let path = operation.path(project: configuration.project, parameter: parameter)
    guard
      var components = URLComponents(
        url: configuration.baseURL, resolvingAgainstBaseURL: false)
    else {
      throw VoteFirstError(.invalidRequest, message: "bad base URL \(configuration.baseURL)")
    }
    let basePath =
      components.percentEncodedPath.hasSuffix("/")
      ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
    components.percentEncodedPath = basePath + path
    // Not `queryItems`: URLComponents leaves `+` as it is, which the server reads as a space.
    if !query.isEmpty { components.percentEncodedQuery = VoteFirstContract.encodeQuery(query) }
    guard let url = components.url else {
      throw VoteFirstError(.invalidRequest, message: "cannot build a URL for \(path)")
    }
    // URLSession's own timeout only limits silence; ``load`` enforces the whole call's.
    var request = URLRequest(
      url: url, cachePolicy: .reloadIgnoringLocalCacheData,
      timeoutInterval: max(DeadlineLoad.effectiveTimeout(configuration.timeout), 0.001))
    request.httpMethod = operation.method
    typealias Header = VoteFirstContract.Header
    request.setValue(Header.json, forHTTPHeaderField: "Accept")
    request.setValue(voter.current, forHTTPHeaderField: Header.voterID)
    if let key = configuration.apiKey { request.setValue(key, forHTTPHeaderField: Header.apiKey) }
    if operation.isAdmin, let token = configuration.adminToken {
      request.setValue("Bearer \(token)", forHTTPHeaderField: Header.authorization)
    }
    if let body {
      do {
        request.httpBody = try VoteFirstCoding.encode(body)
      } catch {
        throw VoteFirstError(.invalidRequest, message: "cannot encode the body: \(error)")
      }
      request.setValue(Header.json, forHTTPHeaderField: Header.contentType)
    }
    let (data, response) = try await Self.load(
      request, through: loading, timeout: configuration.timeout)
    guard let http = response as? HTTPURLResponse else {
      throw VoteFirstError(.badAnswer, message: "\(url.absoluteString): not an HTTP answer")
    }
    guard (200...299).contains(http.statusCode) else {
      let retry = RetryAfter.wholeSeconds(http.value(forHTTPHeaderField: Header.retryAfter))
      throw VoteFirstError.answer(
        status: http.statusCode, body: data, retryAfter: retry, url: url.absoluteString)
    }
    return (data, http.statusCode, url.absoluteString)
  }
}
