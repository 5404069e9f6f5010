import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI

/// `roadmapctl convert`: the Roadmap ↔ VoteFirst mapping offline, no server.
struct ConvertCommand: Command {
  static let configuration = CommandConfiguration(
    name: "convert",
    abstract: "Convert Roadmap JSON to a VoteFirst export document and back, offline.",
    discussion: """
      With --to votefirst-export, INPUT is Roadmap JSON (a file, a URL or -), checked as \
      'validate' checks it (a file with errors converts nothing), and the output is the export \
      document 'POST /api/v1/PROJECT/import' reads: statuses become stages in first-seen order \
      (or as --status-map says), and every field and key of every feature travels. With --to \
      roadmap, INPUT is such an export (from 'convert' or 'GET /api/v1/PROJECT/export') and the \
      output is Roadmap JSON. Anything that cannot travel is named on standard error, by feature \
      and field.
      """)

  /// What to convert to.
  enum Target: String, CaseIterable, ExpressibleByArgument {
    case votefirstExport = "votefirst-export"
    case roadmap
  }

  @Argument(
    help:
      "Roadmap JSON (for --to votefirst-export) or a VoteFirst export (for --to roadmap): a file, a URL or -."
  )
  var input: String

  @Option(help: "What to write.")
  var to: Target

  @Option(
    short: "o", valueName: "file",
    help: "Where to write it (replaced atomically); '-' or none: standard output.")
  var out: String?

  @Option(
    valueName: "ns",
    help: "The project the export names, with --to votefirst-export. (default: roadmap)",
    validate: { NameCheck.namespaceProblem($0) })
  var project: String?

  @Option(
    valueName: "file",
    help: "How statuses become stages (JSON, see docs/migrating.md), with --to votefirst-export.")
  var statusMap: String?

  @Option(
    valueName: "slug",
    help: "The board whose features to write, with --to roadmap. (default: roadmap)")
  var board: String?

  func validate() throws {
    // An option of the other direction is a mistake to name, not one to pass over.
    if to == .roadmap, statusMap != nil {
      throw CommandError.validation("--status-map applies to --to votefirst-export.")
    }
    if to == .roadmap, project != nil {
      throw CommandError.validation(
        "--project applies to --to votefirst-export (an export names its own project).")
    }
    if to == .votefirstExport, board != nil {
      throw CommandError.validation(
        "--board applies to --to roadmap (an export of a roadmap has the roadmap board).")
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    switch to {
    case .votefirstExport:
      let statusMap = try SyncFiles.statusMap(self.statusMap, context: context)
      let features = try await SyncFiles.roadmap(input, context: context)
      let mapping = RoadmapMapping(statusMap: statusMap)
      let (export, losses) = mapping.export(
        features, project: project ?? "roadmap", exportedAt: Date())
      try SyncFiles.write(try SyncFiles.exportBytes(export), to: out, context: context)
      for line in SyncFiles.lossLines(losses) { context.stderr.writeLine(line) }
      context.stderr.writeLine(
        "Converted \(export.features.count) of \(pluralized(features.count, "feature")) into "
          + "\(pluralized(export.stages.count, "stage"))\(Self.lossSummary(losses)).")
    case .roadmap:
      let export = try await SyncFiles.export(input, context: context)
      // A board the export does not have is a mistake, not an empty roadmap (with --out, it
      // replaced a published roadmap with []).
      let board = self.board ?? Board.roadmapSlug
      guard export.boards.contains(where: { $0.slug == board }) else {
        let boards = export.boards.map(\.slug).joined(separator: ", ")
        throw CommandError.failure(
          "the export has no board '\(board)' (its boards: \(boards.isEmpty ? "none" : boards))")
      }
      let (features, losses) = RoadmapMapping().roadmapFeatures(
        from: export, board: board, reading: .restoring)
      try SyncFiles.write(RoadmapWriter.write(features), to: out, context: context)
      for line in SyncFiles.lossLines(losses) { context.stderr.writeLine(line) }
      context.stderr.writeLine(
        "Converted \(features.count) of \(pluralized(export.features.count, "feature")) of project "
          + "\(export.project)\(Self.lossSummary(losses)).")
    }
    return 0
  }

  static func lossSummary(_ losses: LossReport) -> String {
    let dropped = losses.entries.count { $0.kind == .dropped }
    let altered = losses.entries.count { $0.kind == .altered }
    var parts: [String] = []
    if dropped > 0 { parts.append("\(dropped) not carried") }
    if altered > 0 { parts.append("\(altered) altered") }
    return parts.isEmpty ? "; nothing lost" : "; " + parts.joined(separator: ", ") + " (above)"
  }
}
