import VoteFirstAPI

extension RoadmapMapping {
  /// The status map, with each status it does not name mapped to the stage a migration put it
  /// in on `board`: the stage of the first unfinished feature (by id) whose own status it is,
  /// written for that stage.
  ///
  /// So a later run without the status map of the first (`migrate` without `--status-map`,
  /// `reconcile --apply to-votefirst`) puts a new or changed feature with the status
  /// `planned` where the first run's map put `planned` (`Planned`), instead of into a new
  /// stage `planned`. Finished features teach nothing: they may be in the finished stage
  /// whatever their status says. A feature an earlier roadmapctl wrote without the record of
  /// its stage, whose stage has another name now (renamed on the board), teaches the name it
  /// was written for, which ``MigrationPlan`` then finds renamed where the features say so.
  public func statusMap(learningFrom board: BoardState) -> StatusMap {
    var map = statusMap
    let stages = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    let byName = Dictionary(
      stages.values.sorted { $0.id < $1.id }.map { ($0.name, $0) },
      uniquingKeysWith: { first, _ in first })
    var learned: [(status: String, stage: Stage)] = []
    var seen = Set<String>()
    for feature in board.features where feature.content.board == Board.roadmapSlug {
      guard feature.content.ref != nil, let own = feature.content.status,
        let stage = Self.stage(
          feature.content.stage.flatMap({ stages[$0] }), asWrittenFor: feature.content),
        !(feature.content.isFinished ?? stage.isFinished),
        let originals = Self.keptOriginals(of: feature.content),
        let written = Self.stageOfOwnStatus(originals, content: feature.content),
        map.rule(forStatus: own) == nil, !seen.contains(own)
      else { continue }
      if written == stage.name {
        learned.append((own, stage))
      } else if Self.writtenStage(originals) == nil {
        // Written without the record by an earlier roadmapctl, and its stage renamed (or the
        // feature moved) since: `planned`, merged into `Planned` by the first run's map, goes
        // on to `Planned`, which the plan finds renamed where the stage's features say so;
        // learned from the stage's name now, a run without the map split the renamed stage
        // into a new stage per status.
        var named = byName[written] ?? stage
        named.name = written
        learned.append((own, named))
      } else {
        continue
      }
      seen.insert(own)
    }
    for (status, stage) in learned {
      if let index = map.stages.firstIndex(where: { $0.name == stage.name }) {
        map.stages[index].statuses.append(status)
      } else {
        map.stages.append(
          StatusMap.StageRule(
            name: stage.name, statuses: [status], isFinished: stage.isFinished,
            isArchived: stage.isArchived, votingEnabled: stage.votingEnabled, color: stage.color))
      }
    }
    return map
  }
}
