import Foundation
import RoadmapSync
import VoteFirstAPI

/// The calls of the VoteFirst contract the sync commands make (readers' board and features;
/// admin export, stage creation and the feature batch), over `SyncHTTP`, with the contract's
/// paths and JSON configuration. A refusal is a failure naming the call, the status and the
/// server's error code and message.
struct BoardClient: Sendable {
  /// The server's base URL.
  var server: String
  /// The project.
  var project: String
  /// The admin token, for admin calls.
  var key: String?

  /// A board (the roadmap board by default) as readers see it: its stages and every feature
  /// on it (archived stages included, asked for one by one).
  func state(board: String = Board.roadmapSlug) async throws(CommandError) -> BoardState {
    let snapshot: BoardSnapshot = try await call(
      .board, query: [URLQueryItem(name: VoteFirstContract.Query.board, value: board)],
      expecting: 200)
    var features: [Feature] = []
    var seen = Set<Int>()
    var queries = [FeatureQuery(board: board, order: .newest, limit: 100)]
    for stage in snapshot.stages where stage.isArchived {
      queries.append(FeatureQuery(board: board, stage: stage.id, order: .newest, limit: 100))
    }
    for var query in queries {
      while true {
        let page: FeaturePage = try await call(
          .features, query: VoteFirstContract.queryItems(query), expecting: 200)
        for feature in page.features where seen.insert(feature.id).inserted {
          features.append(feature)
        }
        guard let next = page.next else { break }
        query.cursor = next
      }
    }
    return BoardState(
      stages: snapshot.stages,
      features: features.map {
        BoardState.ExistingFeature(id: $0.id, content: $0.content, votes: $0.votes)
      })
  }

  /// The whole project (admin), with every feature's imported votes.
  func export() async throws(CommandError) -> ProjectExport {
    try await call(.export, expecting: 200)
  }

  /// Creates `stage` (admin) and returns it with its id.
  func create(_ stage: Stage) async throws(CommandError) -> Stage {
    try await call(.createStage, body: stage, expecting: 201)
  }

  /// Upserts the batch by ref in one request (admin).
  func upsert(_ batch: FeatureBatch) async throws(CommandError) -> BatchResult {
    try await call(.batchFeatures, body: batch, expecting: 200)
  }

  private struct Nothing: Encodable {}

  private func call<Answer: Decodable>(
    _ operation: VoteFirstContract.Operation, query: [URLQueryItem] = [],
    expecting status: Int
  ) async throws(CommandError) -> Answer {
    try await call(operation, query: query, body: Nothing?.none, expecting: status)
  }

  private func call<Body: Encodable, Answer: Decodable>(
    _ operation: VoteFirstContract.Operation, query: [URLQueryItem] = [], body: Body?,
    expecting status: Int
  ) async throws(CommandError) -> Answer {
    var path = operation.path(project: project)
    if !query.isEmpty {
      var components = URLComponents()
      components.queryItems = query
      path += "?" + (components.percentEncodedQuery ?? "")
    }
    guard let url = ServerURL.join(server, path) else {
      throw .failure("cannot build the URL of \(path) on \(server)")
    }
    var data: Data?
    if let body {
      do {
        data = try VoteFirstCoding.encode(body)
      } catch {
        throw .failure("cannot encode the body of \(operation.method) \(path): \(error)")
      }
    }
    let answer = try await SyncHTTP.send(
      operation.method, url, token: operation.isAdmin ? key : nil, body: data, timeout: 300)
    guard answer.status == status || (status == 201 && answer.status == 200) else {
      var reason = String(decoding: answer.body.prefix(300), as: UTF8.self)
      if let error = try? VoteFirstCoding.decode(APIErrorBody.self, from: answer.body) {
        reason = "\(error.code): \(error.message)" + (error.field.map { " (\($0))" } ?? "")
      }
      let hint = [401, 403].contains(answer.status) ? " Is --key the server's admin token?" : ""
      throw .failure(
        "\(operation.method) \(url.absoluteString) answered HTTP \(answer.status) \(reason).\(hint)"
      )
    }
    do {
      return try VoteFirstCoding.decode(Answer.self, from: answer.body)
    } catch {
      throw .failure(
        "\(operation.method) \(url.absoluteString) answered something that is not "
          + "\(Answer.self): \(error)")
    }
  }
}
