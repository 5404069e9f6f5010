import Foundation
import HTTPServer
import Testing

@testable import CounterService
@testable import VoteStore

/// A store failure's 503 says what the request can know: a write that was not made says
/// nothing was changed; a read (GET, HEAD) changes nothing either way, so its answer says only
/// what failed.
@Suite struct StoreFailureWordingTests {
  @Test func theBoardAPIsReadsAndWritesSayWhatTheyCanKnow() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      await h.boards.close()
      await h.store.close()
      // A project no read has loaded yet, so no view answers from memory.
      let read = await h.get("/features", project: "other-app")
      #expect(read.status == 503)
      #expect(read.body.contains(#""message":"the vote store is unavailable""#), "\(read.body)")
      let vote = await h.call(.post, "/api/v1/\(BoardHarness.project)/features/1/vote", voter: "v1")
      #expect(vote.status == 503)
      #expect(
        vote.body.contains(#""message":"the vote store is unavailable; nothing was changed""#),
        "\(vote.body)")
    }
  }

  @Test(arguments: [
    (VoteStoreError.Kind.timedOut, "the vote store did not answer in time"),
    (.outcomeUnknown, "the vote store lost its database connection"),
    (.io, "the vote store is unavailable"), (.closed, "the vote store is unavailable"),
  ])
  func aFailedReadSaysOnlyWhatFailed(kind: VoteStoreError.Kind, message: String) {
    let error = VoteStoreError(kind, "underneath")
    let read = ServiceError.answer(for: error, read: true).reply(in: .countapi)
    #expect(read.status == 503)
    #expect(read.body == #"{"error":"\#(message)"}"#)
    let write = ServiceError.answer(for: error).reply(in: .countapi)
    #expect(write.body.hasPrefix(#"{"error":"\#(message)"#) && write.body != read.body)
  }

  /// Bug (audit of `serve`, defect 3): a unique key a concurrent write took first
  /// (PostgreSQL 23505) was answered `422 validation_failed` with the database's own text,
  /// and so was any value the database refused. A conflict that outlasts the store's retries
  /// is now `409 conflict`, and a refusal `422` in our own words; the database's text stays
  /// in the log.
  @Test func theDatabasesRefusalsAreAnsweredInOurOwnWords() async throws {
    let duplicate =
      "ERROR:  duplicate key value violates unique constraint \"vf_features_ref\" "
      + "DETAIL:  Key (project, ref)=(demo-app, r0) already exists."
    let cases: [(VoteStoreError, Int, String)] = [
      (PostgresConnection.failure(sqlState: "23505", message: duplicate), 409, "conflict"),
      (
        PostgresConnection.failure(sqlState: "23514", message: "ERROR:  new row violates"),
        422, "validation_failed"
      ),
    ]
    for (error, status, code) in cases {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("refusal-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: directory) }
      let store = try SQLiteVoteStore(directory: directory)
      let service = CounterService(
        store: store, boards: RefusingBoardStore(error: error),
        configuration: ServiceHarness.configuration())
      var headers = HTTPHeaders()
      headers.add(name: "Authorization", value: "Bearer \(ServiceHarness.token)")
      headers.add(name: "Content-Type", value: "application/json")
      let response = await service.handler(
        HTTPRequest(
          method: .put, target: "/api/v1/demo-app/features/ref/r0", headers: headers,
          body: Array(#"{"title":"t"}"#.utf8), remoteAddress: "127.0.0.1"))
      let body = String(decoding: response.body, as: UTF8.self)
      #expect(response.status == status, "\(body)")
      #expect(body.contains(#""code":"\#(code)""#), "\(body)")
      for word in ["PostgreSQL", "ERROR", "violates", "23505"] {
        #expect(!body.contains(word), "\(body)")
      }
      await store.close()
    }
  }
}

/// A board store whose every call fails with `error`.
private struct RefusingBoardStore: BoardStore {
  let error: VoteStoreError

  func read<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T { throw error }
  func write<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T { throw error }
  func close() async {}
}
