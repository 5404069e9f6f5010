import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

@testable import RoadmapSync

/// Boards migrated by a roadmapctl that did not keep, with each feature, the stage it was
/// written for.
@Suite("Plans: stage records of earlier migrations")
struct StageRecordTests {
  static let roadmap = """
    [{"id": "1", "title": "One", "status": "planned",
      "localizedStatus": [{"language": "de", "value": "geplant"}]},
     {"id": "2", "title": "Two", "status": "planned"},
     {"id": "3", "title": "Three", "status": "in progress"}]
    """

  /// `features` migrated onto an empty board as an earlier roadmapctl wrote them: without
  /// the record of their stage.
  static func migratedBeforeTheRecord(
    _ features: [RoadmapFeature], mapping: RoadmapMapping = RoadmapMapping()
  ) -> BoardState {
    var board = applied(
      MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
    for index in board.features.indices {
      let extra = MigrationPlan.withoutWrittenStage(board.features[index].content.extra)
      board.features[index].content.extra = extra.isEmpty ? nil : extra
    }
    return board
  }

  /// `board` with the stage named `old` renamed `new`, as `PUT /stages/{id}` does.
  static func renaming(_ old: String, to new: String, in board: BoardState) -> BoardState {
    var board = board
    for index in board.stages.indices where board.stages[index].name == old {
      board.stages[index].name = new
    }
    return board
  }

  static func published(_ board: BoardState) -> [RoadmapFeature] {
    RoadmapMapping().roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .board
    )
    .features
  }

  /// Bug: features migrated by an earlier roadmapctl never got the record of their stage
  /// unless they changed (the record alone was no change), so a stage renamed on the board
  /// later was read by `publish`, `reconcile` and `migrate` as a move of its features (the new
  /// name as their status, their translated statuses dropped, a new stage of the old name).
  /// A rerun now writes the record to unchanged features as bookkeeping, counted apart.
  @Test("a rerun records the stage of features migrated before the record, as bookkeeping")
  func rerunRecordsTheStage() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let board = Self.migratedBeforeTheRecord(features)
    let rerun = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: board)
    #expect(rerun.items.map(\.action) == [.unchanged, .unchanged, .unchanged])
    #expect(rerun.items.map(\.recordsStage) == [true, true, true])
    #expect(rerun.stageRecords == 3)
    #expect(!rerun.writesNothing)
    #expect(rerun.batch(createdStages: [:]).features.map(\.content.ref) == ["1", "2", "3"])
    let recorded = applied(rerun, to: board)
    // Nothing reads otherwise: the record is bookkeeping.
    #expect(Self.published(recorded) == Self.published(board))
    let again = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: recorded)
    #expect(again.writesNothing, "\(again.items.map(\.recordsStage))")

    // Renamed afterwards: a rename, not a move.
    let renamed = Self.renaming("in progress", to: "Doing", in: recorded)
    #expect(Self.published(renamed).map(\.status) == features.map(\.status))
    #expect(ReconcilePlan.make(roadmap: features, board: renamed).inSync)
    let after = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: renamed)
    #expect(after.writesNothing, "\(after.stagesToCreate.map(\.name)) \(after.items.map(\.action))")
  }

  /// Bug: a stage renamed on the board before any feature in it had the record was read as a
  /// move: `migrate` created a stage of the old name and moved the features into it. Where a
  /// feature in it says (by the status or translated statuses the earlier roadmapctl kept as
  /// written for it) that the stage had the name the roadmap asks for, and the stage holds
  /// exactly the features the roadmap puts there, it is that stage renamed.
  @Test("a stage renamed before the record, whose features say its old name, is a rename")
  func renamedBeforeTheRecordIsInferred() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    for mapping in [
      RoadmapMapping(),
      RoadmapMapping(statusMap: try StatusMap.read(Array(PlanTests.renamedStatusMap.utf8))),
    ] {
      let old = Self.migratedBeforeTheRecord(features, mapping: mapping)
      let name = try #require(old.stages.first { $0.id == old.features[0].content.stage }?.name)
      let board = Self.renaming(name, to: "Next up", in: old)
      let plan = MigrationPlan.make(features: features, mapping: mapping, board: board)
      #expect(plan.stagesToCreate.isEmpty, "\(plan.stagesToCreate.map(\.name))")
      #expect(plan.items[0].upsert.content.stage == old.features[0].content.stage)
      #expect(plan.items[1].upsert.content.stage == old.features[1].content.stage)
      let after = applied(plan, to: board)
      #expect(Self.published(after) == Self.published(old))
      #expect(ReconcilePlan.make(roadmap: features, board: after, mapping: mapping).inSync)
      let again = MigrationPlan.make(features: features, mapping: mapping, board: after)
      #expect(again.writesNothing, "\(again.items.map(\.action))")
    }
  }

  /// Bug: migrated before the record with a status map that merges two statuses into one
  /// stage, then renamed on the board, the stage was a rename only for a run given the map:
  /// one without it (`reconcile --apply to-votefirst`, which takes none) learnt each status
  /// from the stage's new name, found none, and split the stage into a new stage per raw
  /// status (`create stage "planned"`, `create stage "in progress"`), moving both features
  /// out. The statuses now teach the name they were written for, which is the stage renamed.
  @Test("a merged stage renamed before the record is a rename without the status map too")
  func mergedStageRenamedBeforeTheRecordWithoutTheMap() throws {
    let features = try SyncFixtures.features(
      """
      [{"id": "1", "title": "One", "status": "planned",
        "localizedStatus": [{"language": "de", "value": "geplant"}]},
       {"id": "2", "title": "Two", "status": "in progress"},
       {"id": "3", "title": "Three", "status": "done", "isFinished": true}]
      """)
    let map = try StatusMap.read(
      Array(#"{"stages": [{"name": "Planned", "statuses": ["planned", "in progress"]}]}"#.utf8))
    let old = Self.migratedBeforeTheRecord(features, mapping: RoadmapMapping(statusMap: map))
    let stage = try #require(old.features[0].content.stage)
    #expect(old.features[1].content.stage == stage)
    let board = Self.renaming("Planned", to: "Next up", in: old)
    let plan = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: board)
    #expect(plan.stagesToCreate.isEmpty, "\(plan.stagesToCreate.map(\.name))")
    #expect(plan.items.map(\.upsert.content.stage) == old.features.map(\.content.stage))
    let after = applied(plan, to: board)
    #expect(Self.published(after) == Self.published(old))
    #expect(ReconcilePlan.make(roadmap: features, board: after).inSync)
    let again = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: after)
    #expect(again.writesNothing, "\(again.items.map(\.action))")
  }

  /// Not a rename: the roadmap's statuses changed, the board's stage did not. The features
  /// say the stage's name now, so the plan makes the new stage, as before.
  @Test("a roadmap whose status changed is a move to a new stage, not a rename")
  func changedStatusIsNotARename() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let board = Self.migratedBeforeTheRecord(features)
    var changed = features
    changed[0].status = "Soon"
    changed[0].localizedStatus = nil
    changed[1].status = "Soon"
    let plan = MigrationPlan.make(features: changed, mapping: RoadmapMapping(), board: board)
    #expect(plan.stagesToCreate.map(\.name) == ["Soon"])
  }

  /// Left as it was (docs/migrating.md says so): renamed before the record, with nothing in
  /// its features to say the name it had, a stage cannot be told from one the owner made and
  /// moved the features into, nor from a roadmap whose statuses changed.
  @Test("renamed before the record, with no feature saying its old name: read as a move")
  func renamedWithoutEvidenceIsAMove() throws {
    let features = try SyncFixtures.features(
      """
      [{"id": "1", "title": "One", "status": "planned"},
       {"id": "2", "title": "Two", "status": "in progress"}]
      """)
    let board = Self.renaming(
      "planned", to: "Next up", in: Self.migratedBeforeTheRecord(features))
    let plan = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: board)
    #expect(plan.stagesToCreate.map(\.name) == ["planned"])
  }
}
