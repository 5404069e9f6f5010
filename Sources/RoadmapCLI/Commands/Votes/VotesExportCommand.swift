import Foundation
import VoteStore

/// `roadmapctl votes export`: writes every counter and voter set as JSON.
struct VotesExportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write every counter and its voters as JSON (to stdout or a file).",
    discussion: """
      The store must already exist: a --data-dir without votes.sqlite3 is an error (exit 1), \
      not an empty export, and nothing is created there.
      """)

  @OptionGroup var store: VotesStoreOptions

  @Option(
    short: "o", valueName: "file",
    help: "Where to write the export; '-' is standard output. A file is replaced atomically.")
  var output: String = "-"

  func run(_ context: CommandContext) async throws -> Int32 {
    let store = try self.store.open(context, mustExist: true)
    let export: VoteExport
    do {
      export = try await store.exportAll()
    } catch {
      await store.close()
      throw CommandError.failure("cannot read the vote store: \(error)")
    }
    await store.close()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(export)
    data.append(UInt8(ascii: "\n"))
    if output == "-" {
      context.stdout.write(bytes: Array(data))
    } else {
      let path = context.resolvePath(output)
      do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
      } catch {
        throw CommandError.failure("cannot write \(path): \(error.localizedDescription)")
      }
      let voters = export.counters.reduce(0) { $0 + $1.voters.count }
      context.stderr.writeLine(
        "Exported \(export.counters.count) counters and \(voters) votes with voter ids to \(path).")
    }
    return 0
  }
}
