import FeatureVoting
import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI

/// `roadmapctl reconcile`: how a Roadmap JSON and a VoteFirst project differ, for CI.
struct ReconcileCommand: Command {
  static let configuration = CommandConfiguration(
    name: "reconcile",
    abstract: "Compare a Roadmap JSON with a VoteFirst project; exit 1 when they drifted apart.",
    discussion: """
      Lists the features on one side only, the fields that differ (per language for the \
      localized ones, per key for extra keys), the status and finished flags that differ, and \
      the counts that drifted (the JSON's own votes, and with --counts a counting API's, against \
      VoteFirst's). Exit status 0 when in sync, 1 on drift (with --apply: 0 once the drift is \
      settled, 1 when that fails). The project is read from --server \
      (its public API) or from an export document (--export). --apply to-roadmap writes the \
      Roadmap JSON that matches VoteFirst (to --out, else over ROADMAP); --apply to-votefirst \
      migrates the roadmap onto --server (as 'migrate' does; needs --key).
      """)

  /// How to print the comparison.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument { case human, json }

  /// Which side to change.
  enum Direction: String, CaseIterable, ExpressibleByArgument {
    case toVotefirst = "to-votefirst"
    case toRoadmap = "to-roadmap"
  }

  @Argument(help: "The roadmap: a file, an http(s) URL, or - for standard input.")
  var roadmap: String

  @Option(
    valueName: "url", help: "The VoteFirst server (roadmapctl serve).",
    validate: { ServerURL.problem($0, option: "--server") })
  var server: String?

  @Option(
    valueName: "ns", help: "The project on --server.",
    validate: { NameCheck.namespaceProblem($0) })
  var project: String?

  @Option(valueName: "file", help: "A VoteFirst export document instead of --server.")
  var export: String?

  @Option(
    valueName: "url", help: "A counting API whose counts to compare too.",
    validate: { ServerURL.problem($0, option: "--counts") })
  var counts: String?

  @Option(help: "The protocol of --counts.")
  var dialect: SyncDialect = .countapi

  @Option(valueName: "ns", help: "The namespace of --counts.")
  var namespace: String?

  @Option(
    valueName: "template", help: "How a feature id becomes a key of --counts; {id} is the id.",
    validate: { (try? KeyTemplate($0)) == nil ? "--key-template must contain {id} once." : nil })
  var keyTemplate: String = "feature{id}"

  @Option(help: "Carry out the plan: make VoteFirst or the roadmap match the other side.")
  var apply: Direction?

  @Option(short: "o", valueName: "file", help: "With --apply to-roadmap: where to write it.")
  var out: String?

  @Option(
    valueName: "token", environment: "ROADMAPCTL_ADMIN_TOKEN",
    help: """
      The server's admin token, for --apply to-votefirst; with --counts, the counts are then \
      compared with what the board imported (the votes cast on the board since are not drift).
      """)
  var key: String?

  @Option(help: "How to print the comparison.")
  var format: OutputFormat = .human

  @OptionGroup var serverTimeout: ServerTimeoutOptions

  func validate() throws {
    if (server == nil) == (export == nil) {
      throw CommandError.validation("Give either --server (with --project) or --export.")
    }
    if server != nil, project == nil {
      throw CommandError.validation("--server needs --project.")
    }
    if counts != nil, namespace == nil {
      throw CommandError.validation("--counts needs --namespace.")
    }
    if apply == .toVotefirst, server == nil {
      throw CommandError.validation("--apply to-votefirst writes to a server: give --server.")
    }
    // Before anything is read or printed (it compared and printed, then refused).
    if apply == .toVotefirst, let server, key?.isEmpty ?? true {
      throw CommandError.validation(
        "Writing to \(server) needs its admin token: --key or ROADMAPCTL_ADMIN_TOKEN.")
    }
    if apply == .toRoadmap, out == nil, roadmap == "-" || InputLoader.isURL(roadmap) {
      throw CommandError.validation("--apply to-roadmap needs --out when ROADMAP is not a file.")
    }
    if out != nil, apply != .toRoadmap {
      throw CommandError.validation("--out goes with --apply to-roadmap.")
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let features = try await SyncFiles.roadmap(roadmap, context: context)
    let board: BoardState
    let boardName: String
    if let export {
      let document = try await SyncFiles.export(export, context: context)
      board = BoardState(export: document, board: Board.roadmapSlug)
      boardName = "\(export) (project \(document.project))"
    } else if counts != nil, let key {
      // The admin export says what each feature last imported, which a counting API's count
      // is compared with: the votes cast on the board since are not drift.
      let client = BoardClient(
        server: server!, project: project!, key: key, readOnly: true,
        timeout: serverTimeout.seconds)
      board = BoardState(export: try await client.export(), board: Board.roadmapSlug)
      boardName = "\(project!) on \(server!)"
    } else {
      board = try await BoardClient(
        server: server!, project: project!, readOnly: true, timeout: serverTimeout.seconds
      ).state()
      boardName = "\(project!) on \(server!)"
    }
    var counted: [String: Int]?
    if let counts, let namespace {
      let source = try VoteSources.source(
        server: counts, namespace: namespace, dialect: dialect, keyTemplate: keyTemplate,
        timeout: serverTimeout.countingReadSeconds)
      let read = await source.read(
        features, notice: { [stderr = context.stderr] in stderr.writeLine($0) })
      if let warning = await source.noneExists(features, read: read) {
        context.stderr.writeLine("warning: \(warning)")
      }
      for failure in read.failures {
        context.stderr.writeLine(
          "cannot read the count of feature \(failure.id): \(failure.error.message)")
      }
      if !read.failures.isEmpty {
        throw CommandError.failure(
          "\(pluralized(read.failures.count, "count")) of \(counts) could not be read (above); "
            + "nothing was compared.")
      }
      counted = read.counts
    }
    let plan = ReconcilePlan.make(roadmap: features, board: board, counts: counted)
    for line in SyncFiles.lossLines(plan.losses) { context.stderr.writeLine(line) }
    let display = roadmap == "-" ? InputLoader.standardInputName : roadmap
    if format == .json {
      context.stdout.writeLine(ReconcileReport.json(plan))
    } else {
      context.stdout.write(ReconcileReport.human(plan, roadmap: display, board: boardName))
    }
    // Without the admin export a counting API's count met the board's total, votes cast on
    // the board since included: say how to tell those apart before anyone migrates again.
    if counts != nil, export == nil, key == nil,
      plan.voteDrift.contains(where: { $0.counted != nil && $0.counted != $0.voteFirst })
    {
      context.stderr.writeLine(
        "note: the counting API was compared with the board's total count, which includes the "
          + "votes cast on the board since the migration; with the admin token (--key or "
          + "ROADMAPCTL_ADMIN_TOKEN) it is compared with what the board imported, and only "
          + "votes the board has not taken in are drift.")
    }
    switch apply {
    case nil:
      return plan.inSync ? 0 : 1
    case .toRoadmap:
      let (matching, losses) = ReconcilePlan.roadmapMatchingBoard(roadmap: features, board: board)
      for line in SyncFiles.lossLines(losses) { context.stderr.writeLine(line) }
      let target = out ?? roadmap
      try SyncFiles.write(RoadmapWriter.write(matching), to: target, context: context)
      context.stderr.writeLine("Wrote \(pluralized(matching.count, "feature")) to \(target).")
      return 0
    case .toVotefirst:
      let migration = Migration(
        server: server!, project: project!, key: key, dryRun: false, format: .human,
        timeout: serverTimeout.seconds)
      // With --format json, standard output is the comparison's one JSON document: the
      // migration's own lines go to standard error.
      var migrating = context
      if format == .json { migrating.stdout = context.stderr }
      return try await migration.run(
        features: features, mapping: RoadmapMapping(),
        votes: counted.map { .counted($0) } ?? .roadmapJSON, context: migrating)
    }
  }
}
