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
    // Streamed: the store hands the JSON over in pieces as it reads, so memory stays flat
    // however many counters there are. A file is written beside its target and renamed
    // into place only when complete.
    if output == "-" {
      let stdout = context.stdout
      _ = try await export(store) { bytes in stdout.write(bytes: bytes) }
      return 0
    }
    // A symbolic link is followed: the file it names is replaced, not the link.
    let path = OutputFile.target(context.resolvePath(output))
    var info = stat()
    if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
      // A device, pipe or socket (/dev/null, a FIFO): written in place, never replaced.
      guard let handle = FileHandle(forWritingAtPath: path) else {
        await store.close()
        throw CommandError.failure("cannot write \(path): cannot open it for writing")
      }
      defer { try? handle.close() }
      let summary = try await export(store) { bytes in try handle.write(contentsOf: bytes) }
      context.stderr.writeLine(
        "Exported \(summary.counters) counters and \(summary.voters) votes with voter ids to \(path)."
      )
      return 0
    }
    let temporary = path + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
    guard FileManager.default.createFile(atPath: temporary, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary)
    else {
      await store.close()
      throw CommandError.failure("cannot write \(path): cannot create \(temporary)")
    }
    let summary: ExportSummary
    do {
      summary = try await export(store) { bytes in try handle.write(contentsOf: bytes) }
      try handle.synchronize()
      try handle.close()
      guard rename(temporary, path) == 0 else {
        throw CommandError.failure(
          "cannot write \(path): \(String(cString: strerror(errno)))")
      }
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(atPath: temporary)
      if let failure = error as? CommandError { throw failure }
      throw CommandError.failure("cannot write \(path): \(error.localizedDescription)")
    }
    context.stderr.writeLine(
      "Exported \(summary.counters) counters and \(summary.voters) votes with voter ids to \(path)."
    )
    return 0
  }

  /// Streams the store's export to `write`, then closes the store.
  private func export(
    _ store: any VoteStore, _ write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(CommandError) -> ExportSummary {
    do {
      let summary = try await store.exportAll(to: write)
      await store.close()
      return summary
    } catch {
      await store.close()
      throw CommandError.failure("cannot read the vote store: \(error)")
    }
  }
}
