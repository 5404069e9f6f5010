import CounterService
import Foundation
import RoadmapSync
import VoteFirstAPI

/// The VoteFirst calls the sync commands make, through `VoteFirstHTTPClient`: the readers'
/// board and features, and the admin export, stage creation and feature batch. A failure
/// becomes a command failure naming the call, the server's status and error code, and what to
/// check.
struct BoardClient: Sendable {
  /// The server's base URL.
  var server: String
  /// The project.
  var project: String
  /// The admin token, for admin calls.
  var key: String?
  /// Whether the command only reads (`publish`, `reconcile`): its failures then do not say a
  /// rerun finishes anything, since it writes nothing.
  var readOnly = false
  /// The most one call may take, in seconds, answer included (``ServerTimeoutOptions``).
  var timeout: TimeInterval = ServerTimeoutOptions.defaultSeconds

  /// A board (the roadmap board by default) as readers see it: its stages and every feature
  /// on it (archived stages included, asked for one by one).
  func state(board: String = Board.roadmapSlug) async throws(CommandError) -> BoardState {
    let client = try makeClient()
    let snapshot = try await attempt("GET the board '\(board)'") { () throws(VoteFirstError) in
      try await client.board(slug: board)
    }
    var queries = [FeatureQuery(board: board, order: .newest)]
    for stage in snapshot.stages where stage.isArchived {
      queries.append(FeatureQuery(board: board, stage: stage.id, order: .newest))
    }
    var features: [Feature] = []
    var seen = Set<Int>()
    for query in queries {
      // Each page its own call: a 429 part way sends that page again, where `allFeatures` as
      // one call started over from the first page and, on a board of more pages than the
      // server's read limit lets through at once, never finished.
      // A server that hands out a cursor twice is a failure, not a partial listing: what
      // follows the repeat would be missing from what publish writes and migrate compares.
      let listed = try await client.allFeatures(
        query,
        readingPagesWith: { page throws(CommandError) in
          try await attempt("GET the features of '\(board)'") { () throws(VoteFirstError) in
            try await client.features(page)
          }
        },
        failingOnRepeatedCursor: { cursor in
          failure(
            "GET the features of '\(board)'",
            VoteFirstError(
              .badAnswer,
              message: "the features' pages stop moving on at the cursor '\(cursor)' (a "
                + "cursor handed out again, or pages that list nothing new): the listing would "
                + "never end"))
        })
      for feature in listed where seen.insert(feature.id).inserted { features.append(feature) }
    }
    return BoardState(
      stages: snapshot.stages,
      features: features.map {
        BoardState.ExistingFeature(id: $0.id, content: $0.content, votes: $0.votes)
      })
  }

  /// The whole project (admin), with every feature's imported votes.
  func export() async throws(CommandError) -> ProjectExport {
    let client = try makeClient()
    return try await attempt("GET the export") { () throws(VoteFirstError) in
      try await client.exportProject()
    }
  }

  /// The export of the project, or, when it does not exist yet, what a new project holds
  /// (default settings and the roadmap board) without creating it: any admin call creates
  /// the project, so a dry run asks a reader's call first (`--dry-run` created a stray
  /// project, which a later `restore` of that project then refused).
  func exportWithoutCreating() async throws(CommandError) -> ProjectExport {
    let client = try makeClient()
    do {
      _ = try await client.board(slug: Board.roadmapSlug)
    } catch  where error.code == VoteFirstContract.ErrorCode.projectNotFound {
      return ProjectExport(
        project: project, exportedAt: Date(), settings: ProjectSettings(),
        boards: [Board(slug: Board.roadmapSlug, name: "Roadmap")], stages: [], tags: [],
        features: [], releases: [], suggestions: [])
    } catch {
      // Any other answer (a roadmap board that is not public, say): the export tells.
    }
    return try await export()
  }

  /// Raises feature `id`'s anonymous part to `count` where it holds less and records `count`
  /// as imported (admin); returns the feature's count.
  func raiseImportedVotes(featureID id: Int, to count: Int) async throws(CommandError) -> Int {
    let client = try makeClient()
    return try await attempt("PUT the imported votes of feature \(id)") {
      () throws(VoteFirstError) in try await client.raiseImportedVotes(featureID: id, to: count)
    }.votes
  }

  /// Gives feature `id`, which has no ref, the ref of `content` (admin): its content
  /// otherwise as it is, its votes merged into the ref's counter by the server.
  func giveRef(featureID id: Int, _ content: FeatureContent) async throws(CommandError) {
    let client = try makeClient()
    _ = try await attempt("PUT the ref \(JSONText.quote(content.ref ?? "")) of feature \(id)") {
      () throws(VoteFirstError) in try await client.updateFeature(id: id, content)
    }
  }

  /// Creates `stage` (admin), or takes the board's stage of its name when it has one by then
  /// (another migration running at the same time made it: `POST …/stages?reuse=name`), and
  /// returns it with its id and whether this call created it (`201`, not `200`).
  func createOrReuse(_ stage: Stage) async throws(CommandError) -> (stage: Stage, created: Bool) {
    let what = "POST the stage \(JSONText.quote(stage.name))"
    let path =
      VoteFirstContract.Operation.createStage.path(project: project) + "?reuse=name"
    guard let url = ServerURL.join(server, path), let body = try? VoteFirstCoding.encode(stage)
    else { throw .failure("\(what) of project \(project) on \(server) failed: no URL for \(path)") }
    let answer: SyncHTTP.Answer
    do {
      answer = try await SyncHTTP.send("POST", url, token: key, body: body, timeout: timeout)
    } catch {
      // No answer: the stage was made or not, and a rerun finds it by name either way.
      let limit =
        error.message.contains("no whole answer")
        ? " (--server-timeout or ROADMAPCTL_SERVER_TIMEOUT sets this limit)" : ""
      throw .failure(
        "\(what) of project \(project) on \(server) failed: \(error.message)\(limit). Running "
          + "the command again is safe: it finishes what is missing.")
    }
    guard answer.status == 200 || answer.status == 201 else {
      let reason = try? VoteFirstCoding.decode(APIErrorBody.self, from: answer.body)
      let kind: VoteFirstError.Kind =
        answer.status == 401 || reason?.code == VoteFirstContract.ErrorCode.forbidden
        ? .unauthorized : .refused
      throw failure(
        what,
        VoteFirstError(
          kind, message: "HTTP \(answer.status) from \(url.absoluteString)",
          status: answer.status, reason: reason))
    }
    guard let made = try? VoteFirstCoding.decode(Stage.self, from: answer.body) else {
      throw .failure(
        "\(what) of project \(project) on \(server) failed: HTTP \(answer.status) with no stage: "
          + String(decoding: answer.body.prefix(300), as: UTF8.self))
    }
    return (made, answer.status == 201)
  }

  /// Upserts the batch by ref in one request (admin).
  func upsert(_ batch: FeatureBatch) async throws(CommandError) -> BatchResult {
    let client = try makeClient()
    return try await attempt("POST the batch of \(batch.features.count) features") {
      () throws(VoteFirstError) in try await client.upsertFeatures(batch.features)
    }
  }

  private func makeClient() throws(CommandError) -> VoteFirstHTTPClient {
    guard let url = URL(string: server) else { throw .validation("'\(server)' is not a URL.") }
    // A whole board or export comes in one answer, which for a large project is far more
    // than an app ever reads; 2 GiB still bounds what a wrong server can make us hold.
    // `timeout` bounds each call, so a server that never answers fails the command.
    return VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: url, project: project, adminToken: key, timeout: timeout,
        maximumAnswerBytes: 2 << 30))
  }

  /// Makes `call`, sent again after a 429 (``RateLimitPatience``); a failure says what was
  /// being done.
  private func attempt<T>(
    _ what: String, _ call: () async throws(VoteFirstError) -> T
  ) async throws(CommandError) -> T {
    var patience = RateLimitPatience()
    while true {
      do {
        return try await call()
      } catch  where error.kind == .rateLimited {
        if await patience.waitToRetry(retryAfter: error.retryAfter) { continue }
        throw failure(what, error)
      } catch {
        throw failure(what, error)
      }
    }
  }

  /// What a failed call of `what` says.
  private func failure(_ what: String, _ error: VoteFirstError) -> CommandError {
    var text = "\(what) of project \(project) on \(server) failed: "
    if let status = error.status { text += "HTTP \(status) " }
    text += error.reason.map { "\($0.code): \($0.message)" } ?? error.message
    if error.kind == .timedOut {
      text += " (--server-timeout or ROADMAPCTL_SERVER_TIMEOUT sets this limit)"
    }
    if error.reason?.message.hasSuffix(CounterService.noAdminTokenMessage) == true {
      // No --key can help: the server takes none.
      text += ". Restart it with a token, and pass the same one here as --key."
    } else if error.kind == .unauthorized || error.status == 403 && error.code == "forbidden" {
      text += ". Is --key the server's admin token?"
    } else if error.status == nil {
      // No answer (a lost connection, a server stopped midway): each write is whole or not
      // at all, and a rerun finds what is there by ref and name.
      text +=
        readOnly
        ? ". Running the command again is safe."
        : ". Running the command again is safe: it finishes what is missing."
    }
    return .failure(text)
  }
}
