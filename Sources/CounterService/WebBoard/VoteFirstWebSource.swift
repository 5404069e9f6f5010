import Foundation
import HTTPServer
import VoteFirstAPI
import VoteStore
import WebBoard

/// The web board's reads, answered by the same code as the board API's readers
/// (`GET …/board`, `…/features`, `…/features/:id`, `…/releases`), so a page and the API never
/// disagree. A call here is not rate-limited or counted again: the page request that makes it
/// already was.
struct VoteFirstWebSource: WebBoardSource {
  let context: VoteFirstContext

  func board(project: String, slug: String) async throws -> BoardSnapshot? {
    try await read(BoardSnapshot.self, project, "/board", [(VoteFirstContract.Query.board, slug)]) {
      try await context.board($0)
    }
  }

  func features(project: String, query: FeatureQuery, voter: String?) async throws -> FeaturePage {
    let items = VoteFirstContract.queryItems(query).map { ($0.name, $0.value ?? "") }
    let page = try await read(FeaturePage.self, project, "/features", items, voter: voter) {
      try await context.features($0)
    }
    guard let page else {
      throw WebBoardError.notFound("There is no such board in project \(project).")
    }
    return page
  }

  func feature(project: String, id: Int, voter: String?) async throws -> Feature? {
    try await read(Feature.self, project, "/features/\(id)", [], voter: voter, id: id) {
      try await context.feature($0)
    }
  }

  func releases(project: String) async throws -> [Release] {
    try await read(ReleaseList.self, project, "/releases", []) {
      try await context.releases($0)
    }?.releases ?? []
  }

  /// Runs one reader's call as the API would for `GET path?query`, decoding its JSON; a 404 is
  /// nil, a 400 a ``WebBoardError/badRequest(_:)``, a store failure logged and rethrown.
  private func read<T: Decodable>(
    _ type: T.Type, _ project: String, _ path: String, _ query: [(String, String)],
    voter: String? = nil, id: Int? = nil,
    _ body: (VoteFirstContext.Call) async throws -> VoteFirstContext.Answer
  ) async throws -> T? {
    var target = VoteFirstContract.prefix + "/" + VoteFirstContract.encodeSegment(project) + path
    if !query.isEmpty {
      target +=
        "?"
        + query.map {
          VoteFirstContract.encodeSegment($0.0) + "=" + VoteFirstContract.encodeSegment($0.1)
        }.joined(separator: "&")
    }
    var headers = HTTPHeaders()
    if let voter { headers.add(name: VoteFirstContract.Header.voterID, value: voter) }
    var request = HTTPRequest(method: .get, target: target, headers: headers)
    request.pathParameters["project"] = project
    if let id { request.pathParameters["id"] = String(id) }
    do {
      let answer = try await body(
        VoteFirstContext.Call(project: project, request: request, now: VoteFirstContext.now()))
      return try VoteFirstCoding.decode(T.self, from: answer.body ?? Data())
    } catch let failure as VoteFirstFailure {
      switch failure.status {
      case 404: return nil
      case 400: throw WebBoardError.badRequest(failure.body.message)
      default: throw WebBoardError.unavailable(failure.body.message)
      }
    } catch let error as VoteStoreError {
      for line in context.metrics.recordStoreError("store error on web board \(path): \(error)") {
        context.configuration.log(line)
      }
      throw WebBoardError.unavailable("The board could not be read. Try again in a moment.")
    }
  }
}
