import Foundation
import VoteStore

/// `roadmapctl votes import`: loads an export into a store, all or nothing.
struct VotesImportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Load a 'votes export' file into a store, all or nothing.",
    discussion: """
      Counters that already exist are left as they are (and counted as skipped) unless \
      --replace is given, which overwrites them with the file's counts and voters. A --data-dir \
      without a store gets a new one. An export with voter ids (hashes) is refused, nothing \
      imported, unless the store has the voter key they were made with: copy the source's \
      votes.sqlite3-voter-key into a new data directory first (docs/storage.md, 'Moving the \
      voter key').
      """)

  @Argument(help: "The export to load; '-' reads standard input.")
  var file: String

  @Flag(help: "Overwrite counters that already exist in the store.")
  var replace: Bool

  @OptionGroup var store: VotesStoreOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    // Mapped (a pipe copied to a temporary file first) and read twice, in pieces: once to
    // check every rule, once inside the store's transaction to write; never held whole.
    let bytes = try InputLoader.exportBytes(file, context: context)
    let export = try Self.decode(bytes, file: file)
    let summary = try await importCleanly(export, context)
    context.stderr.writeLine(Self.summaryLine(summary))
    return 0
  }
}

extension VotesImportCommand {
  /// Imports `export` into the store the options name. A failed import into a data
  /// directory that held no store leaves no store (nor a directory it had to create)
  /// behind: a mistyped path or a bad file never leaves an empty `votes.sqlite3`.
  func importCleanly(_ export: CheckedVoteExport, _ context: CommandContext) async throws
    -> ImportSummary
  {
    let (opened, footprint) = try store.openTracked(context, mustExist: false)
    do {
      let summary = try await opened.importAll(export, replace: replace)
      await opened.close()
      return summary
    } catch {
      await opened.close()
      if error.outcomeIsUnknown {
        // The database may have committed the import before its answer was lost: run
        // `votes export` to see, rather than import again (a rerun skips what exists).
        throw CommandError.failure(
          "the import may or may not have been made (check with 'roadmapctl votes export'): "
            + "\(error)")
      }
      footprint.removeWhatWasCreated()
      throw CommandError.failure("nothing was imported: \(error)")
    }
  }

  /// `Imported 1 counter.`, `Imported 3 counters, skipped 1 that already exists (…).`
  static func summaryLine(_ summary: ImportSummary) -> String {
    var line = "Imported \(summary.imported) \(summary.imported == 1 ? "counter" : "counters")"
    if summary.skipped > 0 {
      line +=
        summary.skipped == 1
        ? ", skipped 1 that already exists (use --replace to overwrite it)"
        : ", skipped \(summary.skipped) that already exist (use --replace to overwrite them)"
    }
    return line + "."
  }

  /// The export in `bytes`, checked, or a failure that says in words what is wrong and where.
  static func decode(_ bytes: ExportFileBytes, file: String) throws(CommandError)
    -> CheckedVoteExport
  {
    let what =
      "a 'roadmapctl votes export' file (JSON: {\"version\":2,\"voterKey\":…,\"counters\":[…]})"
    if let stray = JSONSyntaxCheck.firstNonText(in: bytes) {
      // Where: one bad byte in a large export is found at once.
      let byte = String(stray.byte, radix: 16, uppercase: true)
      throw .failure(
        "\(file):\(stray.line):\(stray.column): not a text file (the byte 0x"
          + "\(byte.count == 1 ? "0" : "")\(byte) is not UTF-8 text there); expected \(what).")
    }
    let blank = bytes.withUnsafeBytes { bytes in
      bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
    }
    if blank {
      throw .failure("\(file) is empty; expected \(what).")
    }
    switch VoteExport.check(bytes) {
    case .success(let export):
      return export
    case .failure(let found):
      throw .failure(describe(found.problems, file: file))
    }
  }

  /// The most problems listed; the rest are counted (a file of 200,000 bad counters printed
  /// every one).
  static let listedProblems = 100

  /// The problems, one per line up to ``listedProblems``, each with `file:line:column`, then
  /// how many more (a syntax error alone: the file cannot be read further).
  static func describe(_ problems: [ImportProblem], file: String) -> String {
    func place(_ problem: ImportProblem) -> String {
      guard let line = problem.line, let column = problem.column else { return file }
      return "\(file):\(line):\(column)"
    }
    if problems.count == 1, let only = problems.first, only.index == nil, only.path.isEmpty {
      return "\(place(only)): \(only.message)."
    }
    var text =
      "nothing was imported: \(file) has \(problems.count) "
      + (problems.count == 1 ? "problem" : "problems") + ":"
    for problem in problems.prefix(listedProblems) {
      var line = "\n  \(place(problem)): "
      if !problem.path.isEmpty { line += problem.path }
      if let index = problem.index {
        line += " (counter \(index + 1)" + (problem.counter.map { ", \($0)" } ?? "") + ")"
      }
      text += line + ": " + problem.message + "."
    }
    if problems.count > listedProblems {
      text += "\n  … and \(problems.count - listedProblems) more, not listed"
    }
    return text
  }
}
