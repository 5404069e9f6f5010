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
}
