import RoadmapSync

/// The outcome of `reconcile` as text: lines for people, one JSON object for machines.
enum ReconcileReport {
  /// One line per difference, then a summary line.
  static func human(_ plan: ReconcilePlan, roadmap: String, board: String) -> String {
    var lines: [String] = []
    for id in plan.onlyInRoadmap { lines.append("only in the roadmap: feature \(id)") }
    for id in plan.onlyOnVoteFirst { lines.append("only on VoteFirst: feature \(id)") }
    for difference in plan.differences {
      for field in difference.fields {
        let name = field.language.map { "\(field.field)[\($0)]" } ?? field.field
        lines.append(
          "feature \(difference.ref): \(name): roadmap \(field.roadmap ?? "absent"), "
            + "VoteFirst \(field.voteFirst ?? "absent")")
      }
    }
    for drift in plan.voteDrift {
      var parts = [
        "VoteFirst \(drift.voteFirst)" + (drift.published.map { " (published as \($0))" } ?? "")
          + (drift.imported.map { " (imported \($0))" } ?? "")
      ]
      if let roadmap = drift.roadmap { parts.insert("roadmap \(roadmap)", at: 0) }
      if let counted = drift.counted { parts.append("counting API \(counted)") }
      lines.append("feature \(drift.ref): votes: " + parts.joined(separator: ", "))
    }
    lines.append(
      plan.inSync
        ? "\(roadmap) and \(board) are in sync."
        : "\(roadmap) and \(board) differ: \(pluralized(driftedFeatures(plan), "feature")) drifted."
    )
    return lines.joined(separator: "\n") + "\n"
  }

  /// How many features drifted: each once, though its fields and its votes both differ.
  static func driftedFeatures(_ plan: ReconcilePlan) -> Int {
    let sides = plan.onlyInRoadmap.count + plan.onlyOnVoteFirst.count
    return sides + Set(plan.differences.map(\.ref) + plan.voteDrift.map(\.ref)).count
  }

  /// `{"inSync":…,"onlyInRoadmap":[…],"onlyOnVoteFirst":[…],"differences":[…],"voteDrift":[…]}`.
  static func json(_ plan: ReconcilePlan) -> String {
    func list(_ items: [String]) -> String {
      "[" + items.map { JSONText.quote($0) }.joined(separator: ",") + "]"
    }
    func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    let differences = plan.differences.map { difference in
      let fields = difference.fields.map { field in
        "{\"field\":\(JSONText.quote(field.field)),\"language\":\(JSONText.quote(field.language)),"
          + "\"roadmap\":\(field.roadmap ?? "null"),\"voteFirst\":\(field.voteFirst ?? "null")}"
      }
      return
        "{\"ref\":\(JSONText.quote(difference.ref)),\"fields\":[\(fields.joined(separator: ","))]}"
    }
    let drift = plan.voteDrift.map {
      "{\"ref\":\(JSONText.quote($0.ref)),\"roadmap\":\(number($0.roadmap)),"
        + "\"voteFirst\":\($0.voteFirst),\"counted\":\(number($0.counted)),"
        + "\"published\":\(number($0.published)),\"imported\":\(number($0.imported))}"
    }
    return "{\"inSync\":\(plan.inSync),\"onlyInRoadmap\":\(list(plan.onlyInRoadmap)),"
      + "\"onlyOnVoteFirst\":\(list(plan.onlyOnVoteFirst)),"
      + "\"differences\":[\(differences.joined(separator: ","))],"
      + "\"voteDrift\":[\(drift.joined(separator: ","))]}"
  }
}
