import RoadmapSync
import VoteFirstAPI

/// A migration plan (and its outcome) as text: lines for people, one JSON object for machines.
enum MigrationReport {
  /// The plan: stages, then one line per feature created or changed, then a summary.
  static func human(_ plan: MigrationPlan, dryRun: Bool) -> String {
    var lines: [String] = []
    for stage in plan.stagesToCreate {
      lines.append(
        "create stage \(JSONText.quote(stage.name))\(stage.isFinished ? " (finished)" : "")")
    }
    for item in plan.items {
      switch item.action {
      case .create: lines.append("create feature \(item.ref)")
      case .update(let fields):
        lines.append("update feature \(item.ref): \(fields.joined(separator: ", "))")
      case .unchanged: break
      }
    }
    let records = plan.items.filter(\.recordsStage).map(\.ref)
    if !records.isEmpty {
      let named = records.prefix(3).joined(separator: ", ") + (records.count > 3 ? ", …" : "")
      lines.append(
        "\(dryRun ? "would record" : "record") the stage of \(pluralized(records.count, "feature")) "
          + "that \(records.count == 1 ? "lacks" : "lack") the record (\(named)): bookkeeping, "
          + "not a change")
    }
    let dropped = plan.losses.droppedFeatures.count
    lines.append(
      "\(dryRun ? "Dry run: would create" : "Plan: create") \(pluralized(plan.stagesToCreate.count, "stage")); "
        + "\(pluralized(plan.creates, "feature")) to create, \(plan.updates) to change, "
        + "\(plan.unchanged) unchanged"
        + (dropped > 0 ? ", \(dropped) cannot be carried" : "") + ".")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `{"dryRun","stages":{"create","reuse"},"features":[{"ref","action","fields"}],"losses":[…],"result"}`,
  /// `"error"` (the message) when writing failed part way, `"warnings"` (messages) when
  /// there are any (none of the counters of `--votes-from` exists in its namespace), and
  /// `"stageRecords"` (refs) when unchanged features are written to record their stage.
  static func json(
    _ plan: MigrationPlan, result: BatchResult?, dryRun: Bool, error: String? = nil,
    warnings: [String] = []
  ) -> String {
    func names(_ stages: [Stage]) -> String {
      "[" + stages.map { JSONText.quote($0.name) }.joined(separator: ",") + "]"
    }
    let features = plan.items.map { item in
      let (action, fields): (String, [String]) =
        switch item.action {
        case .create: ("create", [])
        case .update(let fields): ("update", fields)
        case .unchanged: ("unchanged", [])
        }
      return "{\"ref\":\(JSONText.quote(item.ref)),\"action\":\"\(action)\",\"fields\":["
        + fields.map { JSONText.quote($0) }.joined(separator: ",") + "]}"
    }
    let losses = plan.losses.entries.map {
      "{\"feature\":\(JSONText.quote($0.feature)),\"field\":\(JSONText.quote($0.field)),"
        + "\"kind\":\"\($0.kind.rawValue)\",\"reason\":\(JSONText.quote($0.reason))}"
    }
    let records = plan.items.filter(\.recordsStage).map(\.ref)
    let outcome =
      result.map {
        "{\"created\":\($0.created),\"updated\":\($0.updated),\"unchanged\":\($0.unchanged)}"
      } ?? "null"
    return "{\"dryRun\":\(dryRun),\"stages\":{\"create\":\(names(plan.stagesToCreate)),"
      + "\"reuse\":\(names(plan.stagesReused))},\"features\":[\(features.joined(separator: ","))],"
      + "\"losses\":[\(losses.joined(separator: ","))],\"result\":\(outcome)"
      + (error.map { ",\"error\":\(JSONText.quote($0))" } ?? "")
      + (records.isEmpty
        ? "" : ",\"stageRecords\":[" + records.map(JSONText.quote).joined(separator: ",") + "]")
      + (warnings.isEmpty
        ? "" : ",\"warnings\":[" + warnings.map(JSONText.quote).joined(separator: ",") + "]")
      + "}"
  }
}
