import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI

/// `roadmapctl publish`: a VoteFirst board as Roadmap JSON, for apps still on the Roadmap
/// package.
struct PublishCommand: Command {
  static let configuration = CommandConfiguration(
    name: "publish",
    abstract: "Write a VoteFirst board as Roadmap JSON, with its votes filled in.",
    discussion: """
      Reads the board through the server's public API and writes it as the Roadmap package \
      reads it: every feature with its votes (the package shows them without calling a counting \
      API), localizations and isFinished, and every key a migration brought along. 'roadmapctl \
      serve' serves the same document live at GET /roadmap/PROJECT.json.
      """)

  @Option(
    valueName: "url", help: "The VoteFirst server (roadmapctl serve).",
    validate: { ServerURL.problem($0, option: "--server") })
  var server: String

  @Option(
    valueName: "ns", help: "The project (a counter namespace).",
    validate: { NameCheck.namespaceProblem($0) })
  var project: String

  @Option(valueName: "slug", help: "The board to publish.")
  var board: String = Board.roadmapSlug

  @Option(
    short: "o", valueName: "file",
    help: "Where to write it (replaced atomically); none or '-': standard output.")
  var out: String?

  @OptionGroup var serverTimeout: ServerTimeoutOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    let client = BoardClient(
      server: server, project: project, readOnly: true, timeout: serverTimeout.seconds)
    let state = try await client.state(board: board)
    let (features, losses) = RoadmapMapping().roadmapFeatures(
      from: state.wireFeatures, stages: state.stages, board: board, reading: .board)
    for line in SyncFiles.lossLines(losses) { context.stderr.writeLine(line) }
    let bytes = RoadmapWriter.write(features)
    // What apps and CI read must pass our own validator: a board whose features cannot make
    // such a file (the mapping gives a ref that cannot be an id a stand-in) is refused, named.
    let report = RoadmapValidator().validate(bytes)
    if report.hasErrors {
      let problems = report.diagnostics.filter { $0.severity == .error }
      for problem in problems.prefix(20) {
        let feature = Self.featureIndex(problem.path).flatMap {
          $0 < features.count ? "feature \(JSONText.quote(features[$0].id))" : nil
        }
        context.stderr.writeLine(
          "\(feature ?? problem.path): \(problem.message) [\(problem.code)]")
      }
      throw CommandError.failure(
        "the board would give a Roadmap JSON that roadmapctl validate refuses "
          + "(\(pluralized(problems.count, "error")), above); nothing was written.")
    }
    try SyncFiles.write(bytes, to: out, context: context)
    if out != nil, out != "-" {
      context.stderr.writeLine(
        "Published \(pluralized(features.count, "feature")) of \(project) to \(out!).")
    }
    return 0
  }

  /// The feature index a diagnostic's path (`/3/id`) starts with.
  static func featureIndex(_ path: String) -> Int? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    return path.hasPrefix("/") ? parts.first.flatMap { Int($0) } : nil
  }
}
