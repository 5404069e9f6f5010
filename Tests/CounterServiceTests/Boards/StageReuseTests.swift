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
      // Without the parameter, a POST of a name the board has is refused (names are one per
      // board), and nothing is made.
      let plain = await harness.call(
        .post, "/api/v1/\(BoardHarness.project)/stages",
        json: #"{"name":"Planned","position":2}"#, admin: true)
      #expect(plain.status == 409, "\(plain.body)")
      let board = await harness.get("/board")
      let stages = try #require(board.object["stages"] as? [[String: Any]])
      #expect(stages.compactMap { $0["name"] as? String }.sorted() == ["Planned", "planned"])
    }
  }
}

/// A stage's name is one per board, on every write: `PUT /stages/{id}` gave a stage the name
/// of another (and a plain `POST` made a second one), after which `POST …/stages?reuse=name`
/// answered whichever of the two came first in the board's order, which changed with their
/// positions.
@Suite struct StageNameTests {
  static let stages = "/api/v1/\(BoardHarness.project)/stages"

  /// The error of a refused write: its code, field and message.
  static func error(_ answer: Answer) -> (code: String?, field: String?, message: String) {
    let error = answer.object["error"] as? [String: Any] ?? [:]
    return (error["code"] as? String, error["field"] as? String, error["message"] as? String ?? "")
  }

  @Test func aStageCannotBeRenamedToAnotherStagesName() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.post, "/stages", #"{"name":"Planned","position":0}"#)
      await harness.admin(.post, "/stages", #"{"name":"Doing","position":1}"#)
      let renamed = await harness.call(
        .put, Self.stages + "/2", json: #"{"name":"Planned","position":1}"#, admin: true)
      #expect(renamed.status == 409, "\(renamed.body)")
      let error = Self.error(renamed)
      #expect(error.code == "stage_name_taken")
      #expect(error.field == "name")
      #expect(error.message.contains("stage 1 of board roadmap"), "\(error.message)")
      #expect(error.message.contains(#""Planned""#), "\(error.message)")
      // Nothing changed, and the name still finds the one stage that has it.
      let board = await harness.get("/board")
      let names = try #require(board.object["stages"] as? [[String: Any]]).map {
        $0["name"] as? String
      }
      #expect(names == ["Planned", "Doing"])
      let reused = await harness.call(
        .post, Self.stages + "?reuse=name", json: #"{"name":"Planned","position":7}"#,
        admin: true)
      #expect(reused.status == 200)
      #expect(reused.object["id"] as? Int == 1)
      // A stage keeps its own name through a PUT (its position changed), and may take one
      // no other stage has.
      let moved = await harness.call(
        .put, Self.stages + "/1", json: #"{"name":"Planned","position":5}"#, admin: true)
      #expect(moved.status == 200, "\(moved.body)")
      let other = await harness.call(
        .put, Self.stages + "/2", json: #"{"name":"Later","position":1}"#, admin: true)
      #expect(other.status == 200, "\(other.body)")
    }
  }

  @Test func namesCompareAsReuseComparesThem() async throws {
    try await BoardHarness.with { harness in
      // Precomposed é.
      await harness.admin(.post, "/stages", "{\"name\":\"Caf\u{E9}\",\"position\":0}")
      // The same name with e and a combining accent: the same name, as reuse=name finds it.
      let decomposed = "{\"name\":\"Cafe\u{301}\",\"position\":1}"
      let reused = await harness.call(
        .post, Self.stages + "?reuse=name", json: decomposed, admin: true)
      #expect(reused.status == 200)
      #expect(reused.object["id"] as? Int == 1)
      let made = await harness.call(.post, Self.stages, json: decomposed, admin: true)
      #expect(made.status == 409, "\(made.body)")
      #expect(Self.error(made).code == "stage_name_taken")
      // Another case is another name (reuse=name makes a new stage for it too).
      await harness.admin(.post, "/stages", #"{"name":"CAFÉ","position":2}"#)
      let renamed = await harness.call(
        .put, Self.stages + "/2", json: decomposed, admin: true)
      #expect(renamed.status == 409, "\(renamed.body)")
    }
  }

  @Test func theNameIsOnePerBoard() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/boards/ideas", #"{"slug":"ideas","name":"Ideas"}"#)
      await harness.admin(.post, "/stages", #"{"name":"New","position":0}"#)
      // Another board's column may have the name.
      await harness.admin(.post, "/stages", #"{"name":"New","position":0,"board":"ideas"}"#)
      await harness.admin(.post, "/stages", #"{"name":"Later","position":1,"board":"ideas"}"#)
      // Moving a stage to a board where the name is taken is refused, naming that board's.
      let moved = await harness.call(
        .put, Self.stages + "/3", json: #"{"name":"New","position":1}"#, admin: true)
      #expect(moved.status == 409, "\(moved.body)")
      #expect(Self.error(moved).message.contains("stage 1 of board roadmap"))
    }
  }

  @Test func anExportWithTwoStagesOfOneNameStillImports() async throws {
    try await BoardHarness.with { harness in
      // Written by a build that let names repeat: its backup must still restore.
      await harness.admin(.post, "/stages", #"{"name":"Planned","position":0}"#)
      let export = await harness.admin(.get, "/export")
      var document = try #require(
        try JSONSerialization.jsonObject(with: Data(export.body.utf8)) as? [String: Any])
      var stages = try #require(document["stages"] as? [[String: Any]])
      var twin = stages[0]
      twin["id"] = 2
      twin["position"] = 1
      stages.append(twin)
      document["stages"] = stages
      document["project"] = "copy-app"
      let body = String(
        decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
      let imported = await harness.call(
        .post, "/api/v1/copy-app/import", json: body, admin: true)
      #expect(imported.status == 200, "\(imported.body)")
      #expect(imported.object["stages"] as? Int == 2)
      // Either twin may still be written with the name it has (archived, moved, recoloured):
      // that makes no second stage of the name, the import did. Only renaming is refused.
      let archived = await harness.call(
        .put, "/api/v1/copy-app/stages/2",
        json: #"{"name":"Planned","position":1,"isArchived":true}"#, admin: true)
      #expect(archived.status == 200, "\(archived.body)")
      #expect(archived.object["isArchived"] as? Bool == true)
      let first = await harness.call(
        .put, "/api/v1/copy-app/stages/1", json: #"{"name":"Planned","position":3}"#,
        admin: true)
      #expect(first.status == 200, "\(first.body)")
      // A third stage of the name, or a rename to it, is still refused.
      await harness.admin(.post, "/stages", #"{"name":"Later"}"#, project: "copy-app")
      let renamed = await harness.call(
        .put, "/api/v1/copy-app/stages/3", json: #"{"name":"Planned"}"#, admin: true)
      #expect(renamed.status == 409, "\(renamed.body)")
      let third = await harness.call(
        .post, "/api/v1/copy-app/stages", json: #"{"name":"Planned"}"#, admin: true)
      #expect(third.status == 409, "\(third.body)")
      // Renamed away, a twin is an ordinary stage again.
      let away = await harness.call(
        .put, "/api/v1/copy-app/stages/2", json: #"{"name":"Shelved","position":1}"#,
        admin: true)
      #expect(away.status == 200, "\(away.body)")
    }
  }
}
