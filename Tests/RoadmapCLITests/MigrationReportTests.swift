import RoadmapFormat
import RoadmapSync
import Testing
import VoteFirstAPI

@testable import RoadmapCLI

/// The plan as `migrate` prints it, for features migrated by an earlier roadmapctl.
@Suite struct MigrationReportTests {
  /// A board as an earlier roadmapctl left it: the features without the record of their
  /// stage.
  static func boardWithoutRecords(_ features: [RoadmapFeature]) -> BoardState {
    let plan = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty)
    let stages = plan.stagesToCreate.enumerated().map { index, stage in
      var stage = stage
      stage.id = index + 1
      return stage
    }
    let ids = Dictionary(uniqueKeysWithValues: stages.map { ($0.name, $0.id) })
    let stored = plan.batch(createdStages: ids).features.enumerated().map { index, upsert in
      var content = upsert.content
      content.extra = nil
      return BoardState.ExistingFeature(
        id: index + 1, content: content, votes: 0, importedVotes: nil)
    }
    return BoardState(stages: stages, features: stored)
  }

  /// Bug: the stage of a feature migrated by an earlier roadmapctl was never recorded while
  /// the feature stayed as it was. The rerun now writes it, and says so on a line of its own
  /// (and in `"stageRecords"`), counted as unchanged, not as a change.
  @Test("the record of a stage is bookkeeping on a line of its own, not a change")
  func stageRecordLine() {
    let features = (1...5).map { RoadmapFeature(id: "\($0)", title: "F\($0)", status: "planned") }
    let plan = MigrationPlan.make(
      features: features, mapping: RoadmapMapping(), board: Self.boardWithoutRecords(features))
    let human = MigrationReport.human(plan, dryRun: true)
    #expect(
      human == """
        would record the stage of 5 features that lack the record (1, 2, 3, …): bookkeeping, \
        not a change
        Dry run: would create 0 stages; 0 features to create, 0 to change, 5 unchanged.

        """)
    let json = MigrationReport.json(plan, result: nil, dryRun: true)
    #expect(json.hasSuffix(#","result":null,"stageRecords":["1","2","3","4","5"]}"#), "\(json)")
  }
}
