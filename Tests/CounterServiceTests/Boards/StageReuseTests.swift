import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// `POST …/stages?reuse=name`: the board's stage of that name instead of a second one, which
/// is what lets two migrations run at once without making every stage twice.
@Suite struct StageReuseTests {
  @Test func aStageOfTheNameIsAnsweredInsteadOfMadeAgain() async throws {
    try await BoardHarness.with { harness in
      let first = await harness.call(
        .post, "/api/v1/\(BoardHarness.project)/stages?reuse=name",
        json: #"{"name":"Planned","position":0}"#, admin: true)
      #expect(first.status == 201, "\(first.body)")
      let again = await harness.call(
        .post, "/api/v1/\(BoardHarness.project)/stages?reuse=name",
        json: #"{"name":"Planned","position":3}"#, admin: true)
      #expect(again.status == 200, "\(again.body)")
      #expect(again.object["id"] as? Int == first.object["id"] as? Int)
      #expect(again.object["position"] as? Int == 0)
      // Another name, or another board's stage of that name, is made as usual.
      let other = await harness.call(
        .post, "/api/v1/\(BoardHarness.project)/stages?reuse=name",
        json: #"{"name":"planned","position":1}"#, admin: true)
      #expect(other.status == 201)
      // Without the parameter, a POST makes a stage whatever its name.
      let plain = await harness.call(
        .post, "/api/v1/\(BoardHarness.project)/stages",
        json: #"{"name":"Planned","position":2}"#, admin: true)
      #expect(plain.status == 201)
      let board = await harness.get("/board")
      let stages = try #require(board.object["stages"] as? [[String: Any]])
      #expect(
        stages.compactMap { $0["name"] as? String }.sorted() == ["Planned", "Planned", "planned"])
    }
  }
}
