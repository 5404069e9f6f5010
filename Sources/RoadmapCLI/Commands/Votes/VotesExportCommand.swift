import Foundation
import VoteStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    let summary: ExportSummary
    do {
      // Streamed: the store hands the JSON over in pieces as it reads, so memory stays flat
      // however many counters there are.
      if output == "-" {
        let stdout = context.stdout
        summary = try await export(store) { bytes in stdout.write(bytes: bytes) }
      } else {
        summary = try await OutputFile.streaming(
          to: context.resolvePath(output), shown: output
        ) { sink in
          try await export(store, failure: { sink.failure }) { bytes in try sink.write(bytes) }
        }
      }
    } catch {
      await store.close()
      throw error
    }
    await store.close()
    if output != "-" {
      context.stderr.writeLine(
        "Exported \(pluralized(summary.counters, "counter")) and \(pluralized(summary.voters, "vote")) with voter ids to "
          + "\(output).")
    }
    return 0
  }

  /// Streams the store's export to `write`. A failure of `write` itself (a full disk), which
  /// `failure` returns, is said as it is, not as the store's.
  private func export(
    _ store: any VoteStore, failure: () -> CommandError? = { nil },
    _ write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(CommandError) -> ExportSummary {
    do {
      return try await store.exportAll(to: write)
    } catch {
      throw failure() ?? CommandError.failure("cannot read the vote store: \(error)")
    }
  }
}
