import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

@testable import RoadmapSync

@Suite("StatusMap: the owner's stages")
struct StatusMapTests {
  static let map = """
    {
      "stages": [
        {"name": "Ideas"},
        {"name": "Planned", "statuses": ["planned", "Planned"], "color": "#36f"},
        {"name": "Shipped", "statuses": ["done", "Available "], "isFinished": true},
        {"name": "Archive", "statuses": ["dropped"], "isArchived": true, "votingEnabled": false}
      ],
      "finishedStage": "Shipped"
    }
    """

  @Test("listed stages come first, in the map's order; the rest in first-seen order")
  func mappedStages() throws {
    let statusMap = try StatusMap.read(Array(Self.map.utf8))
    let features = try SyncFixtures.features(
      """
      [{"id":"1","status":"wip"},{"id":"2","status":"planned"},{"id":"3","status":" Planned "},
       {"id":"4","status":"Available ","isFinished":true},{"id":"5","status":"done"},
       {"id":"6","status":"wip","isFinished":true},{"id":"7","status":"dropped"}]
      """)
    let mapping = RoadmapMapping(statusMap: statusMap)
    let plan = mapping.planStages(for: features)
    #expect(plan.stages.map(\.name) == ["Ideas", "Planned", "Shipped", "Archive", "wip"])
    #expect(plan.stages.map(\.isFinished) == [false, false, true, false, false])
    #expect(plan.stages[1].color == ThemeColor(css: "#3366FF"))
    #expect(plan.stages[3].isArchived && !plan.stages[3].votingEnabled)
    #expect(
      plan.assignments == ["wip", "Planned", "Planned", "Shipped", "Shipped", "Shipped", "Archive"])
    // A status the map sends to a finished stage, on a feature that is not finished, keeps
    // its own flag; the round trip gives every feature back.
    let (back, losses, _) = try SyncFixtures.roundTrip(features, mapping: mapping)
    #expect(back == features)
    #expect(losses.isEmpty)
  }

  @Test("a finished stage that a status holds unfinished gets a name of its own")
  func finishedNameTaken() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1","status":"Finished"},{"id":"2","status":"Finished","isFinished":true}]"#)
    let plan = RoadmapMapping().planStages(for: features)
    #expect(plan.stages.map(\.name) == ["Finished", "Finished (finished)"])
    #expect(plan.stages.map(\.isFinished) == [false, true])
    let (back, _, _) = try SyncFixtures.roundTrip(features)
    #expect(back == features)
  }

  @Test(
    "a status map that cannot be used says why",
    arguments: [
      ("[]", "must be a JSON object"),
      ("{\"stages\":[{\"statuses\":[\"a\"]}]}", "'name' is missing"),
      ("{\"stages\":[{\"name\":\"\"}]}", "stages[0].name must be 1–254"),
      ("{\"stages\":[{\"name\":\"A\"},{\"name\":\"A\"}]}", "listed twice"),
      (
        "{\"stages\":[{\"name\":\"A\",\"statuses\":[\"x\"]},{\"name\":\"B\",\"statuses\":[\"x\"]}]}",
        "already mapped to 'A'"
      ),
      ("{\"stages\":[{\"name\":\"A\",\"color\":\"blue\"}]}", "is not a colour"),
      ("{\"stages\":[{\"name\":\"A\",\"finished\":true}]}", "unknown key 'finished'"),
      ("{\"stage\":[]}", "unknown key 'stage'"),
      ("{\"stages\":[{\"name\":\"A\",\"isFinished\":\"yes\"}]}", "at stages[0].isFinished"),
      (
        "{\"stages\":[{\"name\":\"A\",\"isFinished\":false}],\"finishedStage\":\"A\"}",
        "marks \"isFinished\": false"
      ),
      ("{\"finishedStage\":\"\"}", "finishedStage must be"),
      ("{\"stages\":", "not JSON"),
      // Bugs: Swift's type names, and a finishedStage the map never wrote.
      ("{\"stages\":[{\"name\":\"A\",\"statuses\":\"a\"}]}", "statuses: expected an array"),
      ("{\"stages\":{}}", "at stages: expected an array"),
      ("{\"stages\":[{\"name\":true}]}", "name: expected a string"),
      (
        "{\"stages\":[{\"name\":\"Finished\",\"isFinished\":false}]}",
        "finishedStage (not given: the default, 'Finished') is a stage"
      ),
    ])
  func invalid(_ text: String, _ message: String) throws {
    let error = #expect(throws: SyncError.self) { try StatusMap.read(Array(text.utf8)) }
    #expect(error?.kind == .invalidStatusMap)
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }
}
