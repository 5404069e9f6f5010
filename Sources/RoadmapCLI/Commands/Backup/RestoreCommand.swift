import CounterService
import Foundation
import VoteStore

/// `roadmapctl restore FILE`: loads a `roadmapctl backup` into a store.
struct RestoreCommand: Command {
  static let configuration = CommandConfiguration(
    name: "restore",
    abstract: "Load a 'roadmapctl backup' document (counters and boards) into a store.",
    discussion: """
      The boards' projects must not exist in the store yet, and no counter of the backup may \
      exist: either is refused before anything is written (exit 1), and so is a backup that \
      holds a project, a feature id or ref, an object id or an id sequence twice, a feature \
      or object of a project it does not hold, a document that does not read, or a feature \
      whose board, stage or tags the project does not have. The store is created when \
      missing. The backup's voter ids are hashes made with its store's voter key: when it \
      holds any, the restore is refused (nothing written) unless the target store has that \
      same key. Give it the key first: for a new data directory, copy the source's \
      votes.sqlite3-voter-key into it (mode 0600); for PostgreSQL, see docs/storage.md, \
      'Moving the voter key'. A backup without voter ids restores under any key.
      """)

  @Argument(help: "The backup file, or '-' for standard input.")
  var file: String

  @OptionGroup var store: VotesStoreOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    let bytes = try InputLoader.exportBytes(file, context: context)
    let backup: Restorable
    if let streamed = Self.streamed(bytes) {
      // The counters stay in the file: checked in one reading, written in another, inside
      // the store's transaction.
      try Self.check(format: streamed.format, version: streamed.version, file: file)
      backup = Restorable(boards: streamed.boards, votes: .checked(streamed.votes))
    } else {
      // Anything else (not JSON, another document, a backup with a problem) is read whole,
      // as it always was, so it is refused with the same message.
      let decoded = try Self.decode(Data(bytes.copy()), file: file)
      backup = Restorable(boards: decoded.boards, votes: .inMemory(decoded.votes))
    }
    // Before the store is opened: a backup that cannot be restored whole writes nothing,
    // not its counters without its boards.
    if let problem = backup.boards.firstProblem ?? BoardBackupCheck.firstProblem(in: backup.boards)
    {
      throw CommandError.failure("\(file): \(problem); nothing was restored")
    }
    let (store, footprint) = try self.store.openTracked(context, mustExist: false)
    do {
      let boards = try self.store.openBoards(beside: store)
      do {
        let existing = Set(try await boards.read { try $0.projects() })
        if let taken = backup.boards.projects.first(where: { existing.contains($0.project) }) {
          throw CommandError.failure(
            "project \(taken.project) already exists in this store; nothing was restored")
        }
        if let clash = try await Self.firstClash(of: backup.votes, in: store) {
          let more = clash.others == 0 ? "" : " (and \(clash.others) more of the backup's)"
          throw CommandError.failure(
            "the counter \(clash.namespace)/\(clash.key) already exists in this store\(more); "
              + "nothing was restored")
        }
        // One transaction: cut off (a full disk, a killed process), it leaves the store as
        // it was, so the restore can be run again (its counters would otherwise clash).
        let summary: ImportSummary
        switch backup.votes {
        case .inMemory(let votes):
          summary = try await store.restoreAll(votes: votes, boards: backup.boards)
        case .checked(let votes):
          summary = try await store.restoreAll(votes: votes, boards: backup.boards)
        }
        context.stderr.writeLine(
          "Restored \(pluralized(summary.imported, "counter")), "
            + "\(pluralized(backup.boards.projects.count, "board project")) and "
            + "\(pluralized(backup.boards.features.count, "feature")).")
      } catch {
        await boards.close()
        throw error
      }
      await boards.close()
    } catch let error as CommandError {
      await store.close()
      footprint.removeWhatWasCreated()
      throw error
    } catch {
      await store.close()
      footprint.removeWhatWasCreated()
      throw CommandError.failure("cannot restore: \(error)")
    }
    await store.close()
    return 0
  }

  /// The backup's first counter (by namespace, then key) that `store` already holds, and how
  /// many others it holds; nil when it holds none. Every namespace is asked, so the count is
  /// the whole number, and the one named is the same whatever order the namespaces come in.
  static func firstClash(
    of votes: Restorable.Votes, in store: any VoteStore
  ) async throws -> (namespace: String, key: String, others: Int)? {
    let byNamespace: [String: [String]]
    switch votes {
    case .inMemory(let votes):
      byNamespace = Dictionary(grouping: votes.counters.map(\.record), by: \.namespace)
        .mapValues { $0.map(\.key) }
    case .checked(let votes):
      byNamespace = votes.keysByNamespace
    }
    var clashes: [(namespace: String, key: String)] = []
    for (namespace, keys) in byNamespace {
      let found = try await store.values(namespace: namespace, keys: keys)
      clashes += found.keys.map { (namespace, $0) }
    }
    guard let first = clashes.min(by: { ($0.namespace, $0.key) < ($1.namespace, $1.key) })
    else { return nil }
    return (first.namespace, first.key, clashes.count - 1)
  }
}

extension RestoreCommand {
  /// A backup ready to restore: its boards, and its counters in memory or still in the file.
  struct Restorable {
    /// Where the counters are.
    enum Votes {
      /// Decoded with the rest of the document.
      case inMemory(VoteExport)
      /// Checked in the file, read again when written.
      case checked(CheckedVoteExport)
    }

    var boards: BoardBackup
    var votes: Votes
  }

  /// The members of a backup but its counters.
  private struct Head: Decodable {
    var format: String
    var version: Int
    var boards: BoardBackup
  }

  /// The backup in `bytes` with its counters checked in the file and left there, when it is
  /// one as `roadmapctl backup` writes it: strict JSON, exactly the members `format`,
  /// `version`, `boards` and `votes`, and counters that pass every import rule. Nil for
  /// anything else, which ``decode(_:file:)`` then reads whole (and accepts or refuses as it
  /// always did).
  static func streamed(
    _ bytes: ExportFileBytes
  ) -> (format: String, version: Int, boards: BoardBackup, votes: CheckedVoteExport)? {
    // The counters (most of the bytes) are only skimmed for where they end: the check reads
    // them strictly, and anything it refuses is read whole below, as before.
    guard let members = JSONObjectLayout.members(of: bytes, skimming: ["votes"]),
      Set(members.keys) == ["format", "version", "boards", "votes"],
      let format = members["format"], let version = members["version"],
      let boards = members["boards"], let votes = members["votes"]
    else { return nil }
    var head = Array(#"{"format":"#.utf8) + bytes.copy(format)
    head += Array(#","version":"#.utf8) + bytes.copy(version)
    head += Array(#","boards":"#.utf8) + bytes.copy(boards) + [UInt8(ascii: "}")]
    guard let decoded = try? JSONDecoder().decode(Head.self, from: Data(head)),
      case .success(let checked) = VoteExport.check(bytes, range: votes, keepingKeys: true)
    else { return nil }
    return (decoded.format, decoded.version, decoded.boards, checked)
  }

  /// The document's kind, read before the rest so that another kind of file is named as such
  /// rather than by the first field a backup has and it does not.
  private struct Header: Decodable {
    var format: String?
    var version: Int?
  }

  /// `data` as a backup this build reads, or a failure that says what it is instead.
  static func decode(_ data: Data, file: String) throws(CommandError) -> StoreBackup {
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      throw .failure(
        "\(file) is empty; expected a 'roadmapctl backup' document (JSON: "
          + "{\"format\":\"\(StoreBackup.formatName)\",\"version\":1,…})")
    }
    let backup: StoreBackup
    do {
      backup = try JSONDecoder().decode(StoreBackup.self, from: data)
    } catch {
      // Only a file that is not one is read twice: its header says what it is instead.
      if let header = try? JSONDecoder().decode(Header.self, from: data) {
        try check(format: header.format, version: header.version, file: file)
      }
      // Not JSON at all (a file cut short, say): where, as `votes import` says it.
      if let syntax = JSONSyntaxCheck.describe(Array(data), file: file) {
        throw .failure("\(syntax); it is not a roadmapctl backup")
      }
      let reason = (error as? DecodingError)?.readableDescription ?? "\(error)"
      throw .failure("\(file) is not a roadmapctl backup: \(reason)")
    }
    try check(format: backup.format, version: backup.version, file: file)
    return backup
  }

  /// Refuses a document whose `format` or `version` this build does not read.
  static func check(format: String?, version: Int?, file: String) throws(CommandError) {
    let name = StoreBackup.formatName
    guard let format else {
      throw .failure("\(file) is not a roadmapctl backup: it has no 'format' (\(name))")
    }
    guard format == name, version == 1 else {
      let version = version.map { "version \($0)" } ?? "no version"
      throw .failure(
        "\(file) is a \(format) document of \(version); this build reads \(name) version 1")
    }
  }
}
