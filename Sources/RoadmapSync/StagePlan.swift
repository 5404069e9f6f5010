import RoadmapFormat
import VoteFirstAPI

/// The stages a roadmap needs on VoteFirst and the stage each of its features goes to.
///
/// Made by ``RoadmapMapping/planStages(for:)``: one stage per status (white space at either
/// end trimmed, so `"Available "` goes to `Available`), in the order statuses are first seen,
/// unless the status map says otherwise. A stage is finished when every feature in it is
/// (or when the map says so); a finished feature whose status's stage is not finished, or that
/// has no status, goes to the finished stage (``StatusMap/finishedStage``). A feature without
/// a status that is not finished has no stage.
public struct StagePlan: Sendable, Hashable {
  /// The stages, in board order (ids 0: not created yet; `position` is the index).
  public var stages: [Stage]
  /// The name of the stage of each feature, by the feature's index; nil: no stage.
  public var assignments: [String?]

  /// Creates a plan.
  public init(stages: [Stage], assignments: [String?]) {
    self.stages = stages
    self.assignments = assignments
  }

  /// The planned stage named `name`.
  public func stage(named name: String) -> Stage? {
    stages.first { $0.name == name }
  }
}

extension RoadmapMapping {
  /// The stages `features` need, and where each feature goes.
  public func planStages(for features: [RoadmapFeature]) -> StagePlan {
    let rules = StatusMap.Index(statusMap)
    // 1. The stage each status asks for.
    var wanted: [String?] = []
    wanted.reserveCapacity(features.count)
    var order: [String] = statusMap.stages.map(\.name)
    var known = Set(order)
    var allFinished: [String: Bool] = [:]
    for feature in features {
      var name: String?
      if let status = feature.status {
        if let rule = rules.rule(forStatus: status) {
          name = rule.name
        } else {
          let trimmed = StatusMap.trimmed(status)
          name =
            trimmed.isEmpty ? nil : String(trimmed.unicodeScalars.prefix(VoteFirstLimits.maxName))
        }
      }
      wanted.append(name)
      if let name {
        if known.insert(name).inserted { order.append(name) }
        allFinished[name] = (allFinished[name] ?? true) && feature.isFinished == true
      }
    }
    // 2. Which of them are finished.
    var finished: [String: Bool] = [:]
    for name in order {
      let rule = rules.rule(named: name)
      finished[name] = rule?.isFinished ?? (allFinished[name] ?? false)
    }
    // 3. Finished features whose stage is not finished go to the finished stage.
    var fallback = statusMap.finishedStage
    var suffix = 1
    while finished[fallback] == false {
      suffix += 1
      fallback =
        suffix == 2
        ? statusMap.finishedStage + " (finished)"
        : statusMap.finishedStage + " (finished \(suffix))"
    }
    var assignments: [String?] = []
    assignments.reserveCapacity(features.count)
    var used = Set(statusMap.stages.map(\.name))
    var finalOrder: [String] = statusMap.stages.map(\.name)
    for (index, feature) in features.enumerated() {
      var name = wanted[index]
      if feature.isFinished == true, name.map({ finished[$0] != true }) ?? true {
        name = fallback
        finished[fallback] = true
      }
      if let name, used.insert(name).inserted { finalOrder.append(name) }
      assignments.append(name)
    }
    let stages = finalOrder.enumerated().map { position, name in
      let rule = rules.rule(named: name)
      return Stage(
        name: name, color: rule?.color, position: position,
        votingEnabled: rule?.votingEnabled ?? true, isArchived: rule?.isArchived ?? false,
        isFinished: finished[name] ?? false)
    }
    return StagePlan(stages: stages, assignments: assignments)
  }
}
