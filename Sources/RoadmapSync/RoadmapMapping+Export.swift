import Foundation
import RoadmapFormat
import VoteFirstAPI

extension RoadmapMapping {
  /// `features` as a VoteFirst export document of a new project `project`, offline: the stages
  /// of ``planStages(for:)`` and the features get ids from 1 in order, each feature's votes
  /// are its JSON `votes` (0 when absent) as imported votes.
  public func export(
    _ features: [RoadmapFeature], project: String, exportedAt: Date
  ) -> (export: ProjectExport, losses: LossReport) {
    let plan = planStages(for: features)
    var stages = plan.stages
    for index in stages.indices { stages[index].id = index + 1 }
    let stagesByName = Dictionary(uniqueKeysWithValues: stages.map { ($0.name, $0) })
    var exported: [ProjectExport.ExportedFeature] = []
    var losses = LossReport()
    for (index, feature) in features.enumerated() {
      let stage = plan.assignments[index].flatMap { stagesByName[$0] }
      let mapped = upsert(for: feature, stage: stage)
      losses.entries.append(contentsOf: mapped.losses)
      guard let upsert = mapped.upsert else { continue }
      let votes = upsert.importedVotes ?? 0
      exported.append(
        ProjectExport.ExportedFeature(
          feature: Feature(
            id: exported.count + 1, content: upsert.content, votes: votes,
            createdAt: exportedAt),
          importedVotes: votes))
    }
    let export = ProjectExport(
      project: project, exportedAt: exportedAt, settings: ProjectSettings(),
      boards: [Board(slug: Board.roadmapSlug, name: "Roadmap")], stages: stages, tags: [],
      features: exported, releases: [], suggestions: [])
    return (export, losses)
  }

  /// The Roadmap features of the VoteFirst features on `board`, in id order (the order a
  /// migration created them in), with their stages from `stages`.
  ///
  /// Features on other boards are reported, not written; so are features that cannot be
  /// Roadmap features. A feature without a ref, or with one that cannot be a Roadmap id, gets
  /// its stand-in (``standInIDs(of:board:)``: `vf-N`, or `vf-N-2` where a ref is `vf-N`).
  public func roadmapFeatures(
    from features: [Feature], stages: [Stage], board: String = Board.roadmapSlug,
    reading: VoteReading
  ) -> (features: [RoadmapFeature], losses: LossReport) {
    let stagesByID = Dictionary(stages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var losses = LossReport()
    var result: [RoadmapFeature] = []
    var ids = Set(features.compactMap { $0.content.board == board ? $0.content.ref : nil })
    let stageStatuses = Self.stageStatuses(of: features, stages: stages)
    let standIns = Self.standInIDs(of: features.map { ($0.id, $0.content) }, board: board)
    for feature in features.sorted(by: { $0.id < $1.id }) {
      guard feature.content.board == board else {
        losses.entries.append(
          .init(
            feature: feature.content.ref ?? "#\(feature.id)", field: "feature", kind: .dropped,
            reason: "it is on the board '\(feature.content.board)', not '\(board)'"))
        continue
      }
      let stage = feature.content.stage.flatMap { stagesByID[$0] }
      let mapped = roadmapFeature(
        from: feature.content, id: feature.id, stage: stage, votes: feature.votes,
        reading: reading, stageStatuses: stageStatuses, standIn: standIns[feature.id])
      losses.entries.append(contentsOf: mapped.losses)
      guard let roadmap = mapped.feature else { continue }
      if roadmap.id != feature.content.ref, !ids.insert(roadmap.id).inserted {
        losses.entries.append(
          .init(
            feature: "#\(feature.id)", field: "feature", kind: .dropped,
            reason: "its stand-in id '\(roadmap.id)' is the ref of another feature"))
        continue
      }
      result.append(roadmap)
    }
    return (result, losses)
  }

  /// The Roadmap features of an export document's `board` (see
  /// ``roadmapFeatures(from:stages:board:reading:)``).
  public func roadmapFeatures(
    from export: ProjectExport, board: String = Board.roadmapSlug, reading: VoteReading
  ) -> (features: [RoadmapFeature], losses: LossReport) {
    roadmapFeatures(
      from: export.features.map(\.feature), stages: export.stages, board: board,
      reading: reading)
  }
}
