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
    let backup: StoreBackup
    do {
      let boards = try self.store.openBoards(beside: store)
      do {
        backup = StoreBackup(votes: try await store.exportAll(), boards: try await boards.backup())
      } catch {
        await boards.close()
        throw error
      }
      await boards.close()
    } catch {
      await store.close()
      throw CommandError.failure("cannot read the store: \(error)")
    }
    await store.close()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(backup)
    data.append(UInt8(ascii: "\n"))
    if output == "-" {
      context.stdout.write(bytes: Array(data))
    } else {
      let path = context.resolvePath(output)
      try OutputFile.write(Array(data), to: path, shown: output)
      context.stderr.writeLine(
        "Backed up \(pluralized(backup.votes.counters.count, "counter")), "
          + "\(pluralized(backup.boards.projects.count, "board project")) and "
          + "\(pluralized(backup.boards.features.count, "feature")) to \(path).")
    }
    return 0
  }
}
