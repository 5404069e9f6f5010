import Foundation
import VoteStore

/// `roadmapctl backup`: the counters and the VoteFirst boards of a store, as one JSON file.
struct BackupCommand: Command {
  static let configuration = CommandConfiguration(
    name: "backup",
    abstract: "Write the counters and the VoteFirst boards of a store as one JSON document.",
    discussion: """
      Reads one snapshot of the counters (voter ids stay hashed) and one of the boards \
      (projects, boards, stages, tags, features, releases, suggestions and id sequences). \
      'roadmapctl restore' loads it into another store. The store must already exist.
      """)

  @OptionGroup var store: VotesStoreOptions

  @Option(
    short: "o", valueName: "file",
    help: "Where to write the backup; '-' is standard output. A file is replaced atomically.")
  var output: String = "-"

  func run(_ context: CommandContext) async throws -> Int32 {
    let store = try self.store.open(context, mustExist: true)
    let boards: BoardBackup
    let votes: ExportSummary
    do {
      boards = try await readBoards(beside: store)
      // The counters are streamed as the store reads them, nested in the document, so memory
      // stays flat however many there are (it held the whole document twice: 426 MiB for
      // 200,000 counters, against 27 MiB for 'votes export' of the same store).
      let head = try Self.head(boards)
      if output == "-" {
        let stdout = context.stdout
        votes = try await Self.write(store, head: head) { bytes in stdout.write(bytes: bytes) }
      } else {
        votes = try await OutputFile.streaming(
          to: context.resolvePath(output), shown: output
        ) { sink in
          try await Self.write(store, head: head, failure: { sink.failure }) { bytes in
            try sink.write(bytes)
          }
        }
      }
    } catch {
      await store.close()
      throw error
    }
    await store.close()
    if output != "-" {
      context.stderr.writeLine(
        "Backed up \(pluralized(votes.counters, "counter")), "
          + "\(pluralized(boards.projects.count, "board project")) and "
          + "\(pluralized(boards.features.count, "feature")) to \(context.resolvePath(output)).")
    }
    return 0
  }

  /// One snapshot of the boards of the store beside `store`.
  private func readBoards(beside store: any VoteStore) async throws(CommandError) -> BoardBackup {
    let boards = try self.store.openBoards(beside: store)
    do {
      let backup = try await boards.backup()
      await boards.close()
      return backup
    } catch {
      await boards.close()
      throw .failure("cannot read the store: \(error)")
    }
  }

  /// The document up to the counters: ``StoreBackup``'s members in JSONEncoder's sorted,
  /// pretty-printed form, `boards` written whole (boards are small), ending with `"votes" : `.
  static func head(_ boards: BoardBackup) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var head = Array("{\n  \"boards\" : ".utf8)
    let nested = NestedJSON { head += $0 }
    try nested.write(Array(try encoder.encode(boards)))
    head += Array(
      ",\n  \"format\" : \"\(StoreBackup.formatName)\",\n  \"version\" : 1,\n  \"votes\" : ".utf8)
    return head
  }

  /// Writes `head`, the store's counters as they are read, and the document's end. A failure
  /// of `write` itself (a full disk), which `failure` returns, is said as it is, not as the
  /// store's.
  static func write(
    _ store: any VoteStore, head: [UInt8], failure: () -> CommandError? = { nil },
    _ write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(CommandError) -> ExportSummary {
    do {
      try write(head)
      let summary = try await store.exportAll(to: NestedJSON(write).write)
      try write(Array("\n}\n".utf8))
      return summary
    } catch {
      throw failure() ?? (error as? CommandError)
        ?? CommandError.failure("cannot read the store: \(error)")
    }
  }
}

/// A pretty-printed JSON document written one level down inside another: every line after the
/// first is indented by two more spaces (an empty line stays empty), and its last line break
/// is left out, for the enclosing document to follow it with its own.
final class NestedJSON: @unchecked Sendable {
  // The pieces arrive one at a time, in order (see VoteStore.exportAll(to:)).
  private let output: ([UInt8]) throws -> Void
  private var lineBreakPending = false

  /// Hands what it writes to `output`.
  init(_ output: @escaping ([UInt8]) throws -> Void) {
    self.output = output
  }

  /// Writes the next piece of the document.
  func write(_ bytes: [UInt8]) throws {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    for byte in bytes {
      if lineBreakPending {
        out.append(UInt8(ascii: "\n"))
        if byte == UInt8(ascii: "\n") { continue }
        out += [UInt8(ascii: " "), UInt8(ascii: " ")]
        lineBreakPending = false
      }
      if byte == UInt8(ascii: "\n") {
        lineBreakPending = true
      } else {
        out.append(byte)
      }
    }
    if !out.isEmpty { try output(out) }
  }
}
