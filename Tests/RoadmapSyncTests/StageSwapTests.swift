import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

@testable import RoadmapSync

/// Two stages whose names the owner swapped on VoteFirst.
@Suite("Plans: stage names swapped on VoteFirst")
struct StageSwapTests {
  /// Bug: after the owner swapped the names of two stages (two renames), the features in them
  /// were read as written for their stages (a rename is not a move), but a status was looked
  /// up by the stage's name now: without a status map, a new feature with the status
  /// `planned` went to the stage now called `planned` (the old `in progress`), one status over
  /// two columns; with one naming `planned`, the features in the old `planned` moved there.
  /// A stage's name as written now comes before another stage's name since renamed to it.
  @Test("swapped names are two renames: statuses stay with the stages written for them")
  func swappedNames() throws {
    let features = try SyncFixtures.features(StageRecordTests.roadmap)
    let grown =
      features + [
        RoadmapFeature(id: "4", title: "Four", status: "planned"),
        RoadmapFeature(id: "5", title: "Five", status: "in progress"),
      ]
    for mapping in [
      RoadmapMapping(),
      RoadmapMapping(statusMap: try StatusMap.read(Array(PlanTests.renamedStatusMap.utf8))),
    ] {
      let migrated = applied(
        MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
      let first = try #require(migrated.features[0].content.stage)
      let third = try #require(migrated.features[2].content.stage)
      var board = migrated
      let names = Dictionary(uniqueKeysWithValues: board.stages.map { ($0.id, $0.name) })
      for index in board.stages.indices {
        switch board.stages[index].id {
        case first: board.stages[index].name = names[third]!
        case third: board.stages[index].name = names[first]!
        default: break
        }
      }
      #expect(StageRecordTests.published(board).map(\.status) == features.map(\.status))
      let plan = MigrationPlan.make(features: grown, mapping: mapping, board: board)
      #expect(plan.stagesToCreate.isEmpty)
      #expect(plan.items.prefix(3).map(\.action) == [.unchanged, .unchanged, .unchanged])
      #expect(plan.items[3].upsert.content.stage == first)
      #expect(plan.items[4].upsert.content.stage == third)
      let after = applied(plan, to: board)
      #expect(StageRecordTests.published(after).map(\.status) == grown.map(\.status))
      #expect(ReconcilePlan.make(roadmap: grown, board: after, mapping: mapping).inSync)
      let again = MigrationPlan.make(features: grown, mapping: mapping, board: after)
      #expect(again.writesNothing, "\(again.items.map(\.action))")
    }
  }

  /// Bug: a stage renamed to the name another stage has (the server lets two stages share a
  /// name: `planned` renamed `in progress` beside `in progress`) took that name's features:
  /// the first stage of a name was found, the renamed one, so a new `in progress` feature went
  /// there (one status over two columns) and, with a status map naming `in progress`, the
  /// features of the real one moved into it. Of two stages of a name, the one not renamed to
  /// it since its features were written is found.
  @Test("a stage renamed to another stage's name does not take that stage's features")
  func renamedToAnotherStagesName() throws {
    let features = try SyncFixtures.features(StageRecordTests.roadmap)
    for mapping in [
      RoadmapMapping(),
      RoadmapMapping(
        statusMap: try StatusMap.read(
          Array(#"{"stages": [{"name": "in progress", "statuses": ["in progress"]}]}"#.utf8))),
    ] {
      var board = applied(
        MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
      // The first stage in board order takes the second's name.
      let renamed = board.stages[0].id
      let other = board.stages[1]
      board.stages[0].name = other.name
      let status = try #require(
        zip(features, board.features).first { $0.1.content.stage == other.id }?.0.status)
      let grown = features + [RoadmapFeature(id: "4", title: "Four", status: status)]
      let plan = MigrationPlan.make(features: grown, mapping: mapping, board: board)
      #expect(plan.stagesToCreate.isEmpty)
      #expect(plan.items.prefix(3).map(\.action) == [.unchanged, .unchanged, .unchanged])
      #expect(plan.items[3].upsert.content.stage == other.id)
      #expect(plan.items[3].upsert.content.stage != renamed)
      let after = applied(plan, to: board)
      #expect(StageRecordTests.published(after).map(\.status) == grown.map(\.status))
      #expect(ReconcilePlan.make(roadmap: grown, board: after, mapping: mapping).inSync)
    }
  }
}
