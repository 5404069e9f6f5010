import Foundation
import VoteStore

/// `roadmapctl votes import`: loads an export into a store, all or nothing.
struct VotesImportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Load a 'votes export' file into a store, all or nothing.",
    discussion: """
      Counters that already exist are left as they are (and counted as skipped) unless \
      --replace is given, which overwrites them with the file's counts and voters.
      """)

  @Argument(help: "The export to load; '-' reads standard input.")
  var file: String

  @Flag(help: "Overwrite counters that already exist in the store.")
  var replace: Bool

  @OptionGroup var store: VotesStoreOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    let bytes: [UInt8]
    do {
      bytes =
        file == "-"
        ? try context.stdin.readAll()
        : Array(try Data(contentsOf: URL(fileURLWithPath: context.resolvePath(file))))
    } catch {
      throw CommandError.failure("cannot read \(file): \(error.localizedDescription)")
    }
    let export: VoteExport
    do {
      export = try JSONDecoder().decode(VoteExport.self, from: Data(bytes))
    } catch {
      throw CommandError.failure("\(file) is not a 'roadmapctl votes export' file: \(error)")
    }
    let store = try self.store.open(context, mustExist: false)
    let summary: ImportSummary
    do {
      summary = try await store.importAll(export, replace: replace)
    } catch {
      await store.close()
      throw CommandError.failure("nothing was imported: \(error)")
    }
    await store.close()
    var line = "Imported \(summary.imported) counters"
    if summary.skipped > 0 {
      line += ", skipped \(summary.skipped) that already exist (use --replace to overwrite them)"
    }
    context.stdout.writeLine(line + ".")
    return 0
  }
}
