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
  /// whatever their status says.
  public func statusMap(learningFrom board: BoardState) -> StatusMap {
    var map = statusMap
    let stages = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    var learned: [(status: String, stage: Stage)] = []
    var seen = Set<String>()
    for feature in board.features where feature.content.board == Board.roadmapSlug {
      guard feature.content.ref != nil, let own = feature.content.status,
        let stage = Self.stage(
          feature.content.stage.flatMap({ stages[$0] }), asWrittenFor: feature.content),
        !(feature.content.isFinished ?? stage.isFinished),
        let originals = Self.keptOriginals(of: feature.content),
        Self.stageOfOwnStatus(originals, content: feature.content) == stage.name,
        map.rule(forStatus: own) == nil, seen.insert(own).inserted
      else { continue }
      learned.append((own, stage))
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
