import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// `CounterService.bodyLimit`: 32 MiB only for the VoteFirst batch upsert and import calls
/// that carry the admin token; nil (the server's 1 MiB default) for everything else.
@Suite struct BodyLimitTests {
  static let token = ServiceHarness.token
  static let bearer: HTTPHeaders = ["Authorization": "Bearer \(token)"]
  static let large = CounterService.adminImportBodyBytes

  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var method: HTTPMethod
    var target: String
    var headers: HTTPHeaders
    var limit: Int?
    var testDescription: String { name }
  }

  static let rows: [Row] = [
    .init(
      name: "batch with the token", method: .post, target: "/api/v1/demo-app/features/batch",
      headers: bearer, limit: large),
    .init(
      name: "import with the token", method: .post, target: "/api/v1/demo-app/import",
      headers: bearer, limit: large),
    .init(
      name: "lower-case scheme, extra spaces", method: .post,
      target: "/api/v1/demo-app/features/batch",
      headers: ["authorization": "bearer   \(token)"], limit: large),
    .init(
      name: "percent-encoded segment, query", method: .post,
      target: "/api/v1/demo-app/features/b%61tch?x=1", headers: bearer, limit: large),
    .init(
      name: "batch without a token", method: .post, target: "/api/v1/demo-app/features/batch",
      headers: [:], limit: nil),
    .init(
      name: "batch with a wrong token", method: .post,
      target: "/api/v1/demo-app/features/batch",
      headers: ["Authorization": "Bearer \(token)x"], limit: nil),
    .init(
      name: "batch with a prefix of the token", method: .post,
      target: "/api/v1/demo-app/features/batch",
      headers: ["Authorization": "Bearer \(token.dropLast())"], limit: nil),
    .init(
      name: "the token without Bearer", method: .post,
      target: "/api/v1/demo-app/features/batch", headers: ["Authorization": token], limit: nil),
    .init(
      name: "Basic scheme", method: .post, target: "/api/v1/demo-app/features/batch",
      headers: ["Authorization": "Basic \(token)"], limit: nil),
    .init(
      name: "the token in the query only", method: .post,
      target: "/api/v1/demo-app/features/batch?token=\(token)", headers: [:], limit: nil),
    .init(
      name: "PUT on the batch path", method: .put, target: "/api/v1/demo-app/features/batch",
      headers: bearer, limit: nil),
    .init(
      name: "another admin write (settings)", method: .put, target: "/api/v1/demo-app/settings",
      headers: bearer, limit: nil),
    .init(
      name: "single upsert by ref", method: .put, target: "/api/v1/demo-app/features/ref/r1",
      headers: bearer, limit: nil),
    .init(
      name: "a vote", method: .post, target: "/api/v1/demo-app/features/1/vote",
      headers: bearer, limit: nil),
    .init(
      name: "one segment too many", method: .post,
      target: "/api/v1/demo-app/features/batch/x", headers: bearer, limit: nil),
    .init(
      name: "outside /api/v1", method: .post, target: "/api/v2/demo-app/features/batch",
      headers: bearer, limit: nil),
    .init(
      name: "an empty segment the router would skip", method: .post,
      target: "/api//v1/demo-app/import", headers: bearer, limit: nil),
    .init(
      name: "countapi route", method: .post, target: "/hit/demo-app/feature1", headers: bearer,
      limit: nil),
  ]

  @Test(arguments: rows)
  func limitFor(_ row: Row) {
    let head = HTTPRequestHead(method: row.method, target: row.target, headers: row.headers)
    #expect(CounterService.bodyLimit(for: head, adminToken: Self.token) == row.limit)
  }

  @Test func theServiceGrantsOnlyWithBoardsAndAnAdminToken() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("body-limit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteVoteStore(directory: directory)
    let boards = try SQLiteBoardStore(sharing: store)
    let head = HTTPRequestHead(
      method: .post, target: "/api/v1/demo-app/import", headers: Self.bearer)

    let full = CounterService(
      store: store, boards: boards, configuration: ServiceHarness.configuration())
    #expect(full.bodyLimit(head) == Self.large)
    let withoutBoards = CounterService(store: store, configuration: ServiceHarness.configuration())
    #expect(withoutBoards.bodyLimit(head) == nil)
    let withoutToken = CounterService(
      store: store, boards: boards,
      configuration: ServiceHarness.configuration { $0.adminToken = nil })
    #expect(withoutToken.bodyLimit(head) == nil)
    await boards.close()
    await store.close()
  }
}
