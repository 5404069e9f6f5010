import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// A `CounterService` with the VoteFirst board API over a real `SQLiteVoteStore` and
/// `SQLiteBoardStore` in its own temporary directory, called in-process.
struct BoardHarness {
  static let project = "demo-app"
  static let token = ServiceHarness.token

  let directory: URL
  let store: SQLiteVoteStore
  let boards: SQLiteBoardStore
  let service: CounterService

  /// - Parameter memoryCache: as `serve` opens the store (counts and boards in memory, the
  ///   file's only writer); false reads every call from the database, as on PostgreSQL.
  init(memoryCache: Bool = true, _ adjust: (inout CounterServiceConfiguration) -> Void = { _ in })
    throws
  {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("board-view-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    store = try SQLiteVoteStore(directory: directory, options: .init(memoryCache: memoryCache))
    boards = try SQLiteBoardStore(sharing: store)
    service = CounterService(
      store: store, boards: boards, configuration: ServiceHarness.configuration(adjust))
  }

  /// The service's board view (nil when it keeps none).
  var view: BoardView? { service.voteFirst?.context.view }

  /// Sends one request; `json` is the body, `admin` adds the token.
  @discardableResult
  func call(
    _ method: HTTPMethod, _ target: String, json: String? = nil, admin: Bool = false,
    voter: String? = nil
  ) async -> Answer {
    await Self.call(service, method, target, json: json, admin: admin, voter: voter)
  }

  /// Sends one request to `service` (any harness's): `json` is the body, `admin` adds the
  /// token, `voter` the `X-Voter-ID`.
  static func call(
    _ service: CounterService, _ method: HTTPMethod, _ target: String, json: String? = nil,
    admin: Bool = false, voter: String? = nil
  ) async -> Answer {
    var headers = HTTPHeaders()
    if admin { headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let voter { headers.add(name: "X-Voter-ID", value: voter) }
    if json != nil { headers.add(name: "Content-Type", value: "application/json") }
    let request = HTTPRequest(
      method: method, target: target, headers: headers, body: Array((json ?? "").utf8),
      remoteAddress: "127.0.0.1")
    let response = await service.handler(request)
    return Answer(
      status: response.status, headers: response.headers,
      body: String(decoding: response.body, as: UTF8.self))
  }

  /// An admin call under `/api/v1/PROJECT` that must succeed.
  @discardableResult
  func admin(
    _ method: HTTPMethod, _ path: String, _ json: String? = nil, project: String = project,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Answer {
    let answer = await call(method, "/api/v1/\(project)" + path, json: json, admin: true)
    #expect(
      (200..<300).contains(answer.status), "\(method) \(path): \(answer.body)",
      sourceLocation: sourceLocation)
    return answer
  }

  /// A reader's GET under `/api/v1/PROJECT`.
  func get(_ path: String, project: String = project, voter: String? = nil) async -> Answer {
    await call(.get, "/api/v1/\(project)" + path, voter: voter)
  }

  /// A project with a stage (1), a tag (1), a release (1), features 1 (`one`) and 2 (`two`,
  /// in the stage, tagged) and a pending suggestion (1).
  func seed(project: String = project) async {
    await admin(.put, "/settings", #"{"name":"Demo"}"#, project: project)
    await admin(.post, "/stages", #"{"name":"Planned","position":0}"#, project: project)
    await admin(.post, "/tags", #"{"name":"iOS"}"#, project: project)
    await admin(.put, "/features/ref/one", #"{"title":"One"}"#, project: project)
    await admin(
      .put, "/features/ref/two", #"{"title":"Two","stage":1,"tags":[1]}"#, project: project)
    await admin(
      .post, "/releases", #"{"title":"1.0","date":"2026-11-01T00:00:00Z","features":[1]}"#,
      project: project)
    let suggestion = await call(
      .post, "/api/v1/\(project)/suggestions",
      json: #"{"title":"Dark mode","description":"Please"}"#)
    #expect(suggestion.status == 202, "\(suggestion.body)")
  }

  /// Closes the stores and removes the directory.
  func tearDown() async {
    await boards.close()
    await store.close()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Runs `body` with a fresh harness and tears it down afterwards, also when `body` throws.
  static func with(memoryCache: Bool = true, _ body: (BoardHarness) async throws -> Void)
    async throws
  {
    let harness = try BoardHarness(memoryCache: memoryCache)
    do {
      try await body(harness)
    } catch {
      await harness.tearDown()
      throw error
    }
    await harness.tearDown()
  }
}

extension Answer {
  /// The body parsed as a JSON array of objects under `key`.
  func list(_ key: String) -> [[String: Any]] {
    object[key] as? [[String: Any]] ?? []
  }

  /// The `title` of every feature of a `…/features` page.
  var titles: [String] { list("features").compactMap { $0["title"] as? String } }
}
