import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

@testable import RoadmapSync

/// The ids `publish` writes for features whose ref cannot be a Roadmap id, or that have none.
@Suite("Plans: stand-in ids")
struct StandInTests {
  /// Bug: a feature whose ref cannot be a Roadmap id (`a b`) is published as `vf-ID`; where
  /// another feature's ref was that `vf-ID`, `publish` left the first out ("its stand-in id
  /// … is the ref of another feature") while its `altered:` line advised giving it that very
  /// ref, which the server refuses. The stand-in is now `vf-ID-2` (…) while a ref has
  /// `vf-ID`, and migrating the publication back gives each feature its stand-in as its ref.
  @Test("a stand-in id never is another feature's ref, and the round trip keeps both")
  func standInsAvoidRefs() throws {
    let stage = Stage(id: 1, name: "Maybe", position: 0)
    func feature(_ id: Int, _ ref: String?, _ title: String) -> BoardState.ExistingFeature {
      .init(
        id: id, content: FeatureContent(ref: ref, title: title, stage: 1), votes: id,
        importedVotes: 0)
    }
    let board = BoardState(
      stages: [stage],
      features: [
        feature(4, "a b", "Spaced"), feature(5, "vf-4", "Real vf-4"), feature(6, nil, "Native"),
        feature(9, "vf-6", "Real vf-6"), feature(10, "vf-6-2", "Real vf-6-2"),
      ])
    let (published, losses) = RoadmapMapping().roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .board)
    #expect(published.map(\.id) == ["vf-4-2", "vf-4", "vf-6-3", "vf-6", "vf-6-2"])
    #expect(
      published.map(\.title) == ["Spaced", "Real vf-4", "Native", "Real vf-6", "Real vf-6-2"])
    #expect(losses.entries.map(\.field) == ["id", "id"])
    #expect(losses.entries[0].reason.contains("give it the ref 'vf-4-2'"))
    #expect(losses.entries[1].reason.contains("give it the ref 'vf-6-3'"))
    #expect(ReconcilePlan.make(roadmap: published, board: board).inSync)
    #expect(RoadmapValidator().validate(RoadmapWriter.write(published)).hasErrors == false)

    // Migrated back: the two take their stand-ins as refs, nothing is created.
    let plan = MigrationPlan.make(features: published, mapping: RoadmapMapping(), board: board)
    #expect(plan.creates == 0)
    #expect(plan.items.map(\.adopting) == [4, nil, 6, nil, nil])
    var given = board
    for item in plan.items {
      guard let id = item.adopting, let index = given.features.firstIndex(where: { $0.id == id })
      else { continue }
      given.features[index].content.ref = item.ref
    }
    let after = applied(plan, to: given)
    #expect(after.features.map(\.content.ref) == ["vf-4-2", "vf-4", "vf-6-3", "vf-6", "vf-6-2"])
    #expect(
      RoadmapMapping().roadmapFeatures(
        from: after.wireFeatures, stages: after.stages, reading: .board
      ).features.map(\.id) == published.map(\.id))
    #expect(ReconcilePlan.make(roadmap: published, board: after).inSync)
  }

  /// Bug: `reconcile` looked the board's count up by ref, so a feature published under its
  /// stand-in (no ref, or one that cannot be a Roadmap id) counted 0 on VoteFirst: a vote on
  /// the board since the publication read `votes: roadmap 3, VoteFirst 0 (published as 4)`.
  @Test("reconcile reads the count of a feature published under its stand-in")
  func reconcileCountsStandIns() throws {
    let stage = Stage(id: 1, name: "Maybe", position: 0)
    var board = BoardState(
      stages: [stage],
      features: [
        .init(
          id: 4, content: FeatureContent(ref: "a b", title: "Spaced", stage: 1), votes: 3,
          importedVotes: 0),
        .init(id: 6, content: FeatureContent(title: "Native", stage: 1), votes: 2),
      ])
    let published = RoadmapMapping().roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .board
    ).features
    #expect(published.map(\.votes) == [3, 2])
    #expect(ReconcilePlan.make(roadmap: published, board: board).inSync)
    board.features[0].votes = 4
    board.features[1].votes = 5
    let drift = ReconcilePlan.make(roadmap: published, board: board).voteDrift
    #expect(drift.map(\.ref) == ["vf-4", "vf-6"])
    #expect(drift.map(\.voteFirst) == [4, 5])
    #expect(drift.map(\.published) == [nil, nil])
  }
}
