import Foundation
import HTTPServer
import VoteFirstAPI
import VoteStore

/// What every VoteFirst call shares: the stores, the configuration, the rate limits and the
/// metrics; and the wrapper that runs a call with them.
struct VoteFirstContext: Sendable {
  typealias Code = VoteFirstContract.ErrorCode

  let store: any VoteStore
  let boards: any BoardStore
  let configuration: CounterServiceConfiguration
  let limiter: RateLimiter
  let metrics: ServiceMetrics
  /// The boards in memory, when the store sees every write (SQLite); nil over PostgreSQL,
  /// where every read goes to the database (see ``BoardView``).
  let view: BoardView?

  init(
    store: any VoteStore, boards: any BoardStore, configuration: CounterServiceConfiguration,
    limiter: RateLimiter, metrics: ServiceMetrics
  ) {
    self.store = store
    self.boards = boards
    self.configuration = configuration
    self.limiter = limiter
    self.metrics = metrics
    self.view = boards.seesEveryWrite ? BoardView(boards: boards) : nil
  }

  /// One answer before the common headers are added.
  struct Answer: Sendable {
    var status: Int
    var body: Data?

    static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> Answer {
      Answer(status: status, body: try VoteFirstCoding.encode(value))
    }

    static let noContent = Answer(status: 204, body: nil)
  }

  /// One call: the project, the request, and the moment it is handled.
  struct Call: Sendable {
    var project: String
    var request: HTTPRequest
    var now: Int64

    /// The path parameter `name` as a positive id, or a 400 naming it.
    func id(_ name: String = "id") throws -> Int {
      // Digits as the server writes ids: `+1` and `01` are not another spelling of 1.
      guard let text = request.parameter(name), let id = Int(text), id > 0,
        text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        text.utf8.first != 0x30
      else {
        if request.parameter(name) == "ref" {
          // `PUT …/features/ref/` with the ref left out reads as a feature id of "ref".
          throw VoteFirstFailure.invalidParameter(
            "ref", "the ref is missing: PUT …/features/ref/{ref}")
        }
        throw VoteFirstFailure.invalidParameter(name, "\(name) must be a positive integer")
      }
      return id
    }

    /// The body decoded as `T`; an absent body is `{}` when `optional`.
    func body<T: Decodable>(_ type: T.Type, optional: Bool = false) throws -> T {
      var bytes = request.body
      if bytes.isEmpty {
        guard optional else {
          throw VoteFirstFailure(400, Code.invalidJSON, "this call needs a JSON body")
        }
        bytes = Array("{}".utf8)
      }
      do {
        return try VoteFirstCoding.decode(type, from: Data(bytes))
      } catch {
        throw VoteFirstFailure.decoding(error, body: bytes)
      }
    }

    /// The voter id from `X-Voter-ID` or `voter=`: nil when absent, a 400 when malformed.
    func voter() throws -> String? {
      let given =
        request.headers[VoteFirstContract.Header.voterID]
        ?? request.query(VoteFirstContract.Query.voter)
      guard let given, !given.isEmpty else { return nil }
      guard NameRules.isValidVoter(given) else {
        throw VoteFirstFailure(
          400, Code.invalidVoter,
          "a voter id is 1 to \(NameRules.maxVoterLength) characters of letters, digits and "
            + "_ - . : @ + = /")
      }
      return given
    }
  }

  /// Runs `operation` for `request` with everything every call shares.
  func run(_ operation: VoteFirstContract.Operation, _ request: HTTPRequest) async
    -> HTTPResponse
  {
    let start = RateLimiter.now()
    let route = "vf." + operation.rawValue
    let kind: RateLimiter.Kind = operation.method == "GET" ? .read : .write
    let client = CounterService.clientAddress(request, trustProxy: configuration.trustProxy)
    // The admin token (Authorization: Bearer) lifts the limit; a wrong one limits more.
    if let refusal = limiter.take(
      client: client, kind: kind,
      token: CounterService.limiterToken(request, configuration: configuration, query: false))
    {
      let retry = refusal.retry
      var failure = VoteFirstFailure(
        429, Code.rateLimited,
        refusal.wrongTokens
          ? "too many wrong admin tokens from this address: retry in \(retry) s"
          : "too many requests: retry in \(retry) s")
      failure.headers.append((name: "Retry-After", value: String(retry)))
      return respond(request, route: route, start: start, failure: failure)
    }
    do {
      let project = request.parameter("project") ?? ""
      guard NameRules.isValidName(project) else {
        throw VoteFirstFailure.invalidParameter(
          "project", "a project matches ^[A-Za-z0-9_\\-.]{3,64}$")
      }
      if operation.isAdmin { try authorize(request) }
      let call = Call(project: project, request: request, now: Self.now())
      let answer = try await handle(operation, call)
      var response = HTTPResponse(status: answer.status)
      if let body = answer.body {
        response.body = Array(body)
        response.headers.replaceOrAdd(
          name: "Content-Type", value: "application/json; charset=utf-8")
      }
      return finish(request, response, route: route, start: start)
    } catch {
      return respond(request, route: route, start: start, failure: failure(for: error, request))
    }
  }

  /// Answers `failure` for a request no operation matched.
  func fail(_ request: HTTPRequest, route: String, _ failure: VoteFirstFailure) async
    -> HTTPResponse
  {
    respond(request, route: route, start: RateLimiter.now(), failure: failure)
  }

  private func handle(_ operation: VoteFirstContract.Operation, _ call: Call) async throws
    -> Answer
  {
    switch operation {
    case .board: try await board(call)
    case .features: try await features(call)
    case .feature: try await feature(call)
    case .vote: try await vote(call, up: true)
    case .unvote: try await vote(call, up: false)
    case .releases: try await releases(call)
    case .release: try await release(call)
    case .submitSuggestion: try await submitSuggestion(call)
    case .getSettings: try await settings(call, replacing: false)
    case .putSettings: try await settings(call, replacing: true)
    case .upsertFeature: try await upsertFeature(call)
    case .batchFeatures: try await batchFeatures(call)
    case .updateFeature: try await updateFeature(call)
    case .deleteFeature: try await deleteFeature(call)
    case .importedVotes: try await importedVotes(call)
    case .createStage: try await putStage(call, creating: true)
    case .updateStage: try await putStage(call, creating: false)
    case .deleteStage: try await deleteStage(call)
    case .createTag: try await putTag(call, creating: true)
    case .updateTag: try await putTag(call, creating: false)
    case .deleteTag: try await deleteTag(call)
    case .putBoard: try await putBoard(call)
    case .deleteBoard: try await deleteBoard(call)
    case .createRelease: try await putRelease(call, creating: true)
    case .updateRelease: try await putRelease(call, creating: false)
    case .deleteRelease: try await deleteRelease(call)
    case .listSuggestions: try await listSuggestions(call)
    case .approveSuggestion: try await decideSuggestion(call, approve: true)
    case .rejectSuggestion: try await decideSuggestion(call, approve: false)
    case .export: try await export(call)
    case .import: try await importProject(call)
    }
  }

  /// 401 without `Authorization: Bearer …`, 403 with a wrong token or none configured; a
  /// server without a token says so (``CounterService/noAdminTokenMessage``), since no token
  /// sent could help.
  private func authorize(_ request: HTTPRequest) throws {
    guard let presented = CounterService.bearerToken(request.headers) else {
      throw VoteFirstFailure(
        401, Code.unauthorized,
        configuration.adminToken == nil
          ? "this call needs 'Authorization: Bearer TOKEN', and "
            + CounterService.noAdminTokenMessage
          : "this call needs 'Authorization: Bearer TOKEN' (--admin-token)")
    }
    guard let expected = configuration.adminToken else {
      throw VoteFirstFailure(403, Code.forbidden, CounterService.noAdminTokenMessage)
    }
    guard ConstantTime.equals(presented, expected) else {
      throw VoteFirstFailure(403, Code.forbidden, "the admin token is wrong")
    }
  }

  private func failure(for error: any Error, _ request: HTTPRequest) -> VoteFirstFailure {
    if let failure = error as? VoteFirstFailure { return failure }
    if error is DecodingError { return VoteFirstFailure.decoding(error) }
    if let error = error as? VoteStoreError {
      if error.kind == .outOfRange || error.kind == .invalid {
        // Our own words: a refusal the database made carries its text in `message` (for the
        // log), and what a client may read in `publicDetail`.
        return VoteFirstFailure(422, Code.validationFailed, error.publicDetail ?? error.message)
      }
      if error.kind == .conflict {
        return VoteFirstFailure(409, Code.conflict, error.publicMessage)
      }
      let line = "store error on \(request.method) \(request.path): \(error)"
      for line in metrics.recordStoreError(line) { configuration.log(line) }
      // A read (GET, HEAD) changes nothing, so its answer says only what failed.
      let read = request.method == .get || request.method == .head
      let message: String =
        if read {
          ServiceError.readFailure(error.kind)
        } else {
          switch error.kind {
          case .timedOut: "the vote store did not answer in time; the outcome is unknown"
          case .notDurable:
            "the vote store could not make the change durable; the outcome is unknown"
          case .outcomeUnknown:
            "the vote store lost its database connection during the write; the outcome is unknown"
          default: "the vote store is unavailable; nothing was changed"
          }
        }
      var failure = VoteFirstFailure(503, Code.storeUnavailable, message)
      failure.headers.append((name: "Retry-After", value: "1"))
      return failure
    }
    configuration.log("unexpected error on \(request.method) \(request.path): \(error)")
    return VoteFirstFailure(500, Code.internalError, "the server failed; see its log")
  }

  private func respond(
    _ request: HTTPRequest, route: String, start: Double, failure: VoteFirstFailure
  ) -> HTTPResponse {
    var response = HTTPResponse(status: failure.status)
    response.body = Array((try? VoteFirstCoding.encode(failure.body)) ?? Data())
    response.headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
    for header in failure.headers {
      response.headers.replaceOrAdd(name: header.name, value: header.value)
    }
    return finish(request, response, route: route, start: start)
  }

  private func finish(
    _ request: HTTPRequest, _ response: HTTPResponse, route: String, start: Double
  ) -> HTTPResponse {
    var response = response
    CounterService.decorate(&response, xPath: request.path, origin: configuration.corsOrigin)
    CounterService.finish(
      request, response, route: route, start: start, metrics: metrics,
      configuration: configuration)
    return response
  }

  /// Milliseconds since 1970.
  static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
