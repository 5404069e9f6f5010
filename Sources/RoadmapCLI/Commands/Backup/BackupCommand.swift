import Foundation
import VoteStore

/// `roadmapctl backup`: the counters and the VoteFirst boards of a store, as one JSON file.
struct BackupCommand: Command {
  static let configuration = CommandConfiguration(
    name: "backup",
    abstract: "Write the counters and the VoteFirst boards of a store as one JSON document.",
    discussion: """
      Reads one snapshot of the counters (voter ids stay hashed) and one of the boards \
      (projects, boards, stages, tags, features, releases, suggestions and id sequences), \
      read again after the counters: a file is read again when they changed meanwhile. \
      'roadmapctl restore' loads it into another store. The store must already exist.
      """)

  @OptionGroup var store: VotesStoreOptions

  @Option(
    short: "o", valueName: "file",
    help: "Where to write the backup; '-' is standard output. A file is replaced atomically.")
  var output: String = "-"

  func run(_ context: CommandContext) async throws -> Int32 {
    let store = try self.store.open(context, mustExist: true)
    let backedUp: (boards: BoardBackup, votes: ExportSummary)
    do {
      let options = self.store
      backedUp = try await Self.backUp(
        store, to: output, context: context,
        readBoards: { () async throws(CommandError) -> BoardBackup in
          try await Self.readBoards(options, beside: store)
        })
    } catch {
      await store.close()
      throw error
    }
    await store.close()
    if output != "-" {
      context.stderr.writeLine(
        "Backed up \(pluralized(backedUp.votes.counters, "counter")), "
          + "\(pluralized(backedUp.boards.projects.count, "board project")) and "
          + "\(pluralized(backedUp.boards.features.count, "feature")) to "
          + "\(context.resolvePath(output)).")
    }
    return 0
  }

  /// How many times a backup to a file is read again when the boards changed while it was
  /// read.
  static let attempts = 3

  /// Reads the boards, the counters, then the boards again, and writes the document to
  /// `output` (`-`: standard output). The boards and the counters are two reads: an admin's
  /// edit between them (a ref given to a feature moves its votes to another counter) made a
  /// backup whose restore showed that feature with no votes. So the boards read after the
  /// counters must be the ones written; if not, a file is read again (up to ``attempts``
  /// times, the file left as it was until then), and standard output, already written, ends
  /// with an error saying to run it again.
  static func backUp(
    _ store: any VoteStore, to output: String, context: CommandContext,
    readBoards: () async throws(CommandError) -> BoardBackup
  ) async throws(CommandError) -> (boards: BoardBackup, votes: ExportSummary) {
    let changed =
      "the boards changed while the backup was read (an admin's edit), so its counters may "
      + "not match them"
    for attempt in 1...attempts {
      let boards = try await readBoards()
      let head: [UInt8]
      do {
        head = try Self.head(boards)
      } catch {
        throw .failure("cannot write the backup: \(error)")
      }
      if output == "-" {
        let stdout = context.stdout
        let votes = try await Self.write(store, head: head) { bytes in stdout.write(bytes: bytes) }
        guard try await readBoards() == boards else {
          throw .failure("\(changed): run the backup again.")
        }
        return (boards, votes)
      }
      do {
        let votes = try await OutputFile.streaming(
          to: context.resolvePath(output), shown: output
        ) { sink in
          let votes = try await Self.write(store, head: head, failure: { sink.failure }) {
            bytes in try sink.write(bytes)
          }
          // Before the file is put in place.
          guard try await readBoards() == boards else { throw BoardsChanged() }
          return votes
        }
        return (boards, votes)
      } catch is BoardsChanged {
        if attempt == attempts {
          throw .failure("\(changed) \(attempts) times in a row; \(output) was left as it was.")
        }
      } catch let error as CommandError {
        throw error
      } catch {
        throw .failure("cannot write '\(output)': \(error)")
      }
    }
    preconditionFailure("the last attempt returns or throws")
  }

  /// The boards read after the counters were not the ones read before.
  private struct BoardsChanged: Error {}

  /// One snapshot of the boards of the store beside `store`.
  private static func readBoards(_ options: VotesStoreOptions, beside store: any VoteStore)
    async throws(CommandError) -> BoardBackup
  {
    let boards = try options.openBoards(beside: store)
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
