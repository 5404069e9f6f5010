import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI
import VoteStore

/// Reading and writing the documents of `convert`, `migrate`, `publish` and `reconcile`.
enum SyncFiles {
  /// The features of a Roadmap JSON (file, URL or `-`), read with the project's validator: a
  /// file with errors stops the command, with the validator's report on standard error, before
  /// anything is written.
  static func roadmap(_ input: String, context: CommandContext) async throws(CommandError)
    -> [RoadmapFeature]
  {
    let loaded = try await InputLoader.load(input, context: context)
    let report = RoadmapValidator().validate(loaded.bytes)
    let diagnostics = loaded.transportProblems + report.diagnostics
    let file = ValidatedFile(
      displayPath: loaded.displayPath, bytes: report.convertedText ?? loaded.bytes,
      diagnostics: diagnostics,
      featureCount: report.featureCount,
      isValid: !diagnostics.contains { $0.severity == .error })
    guard file.isValid else {
      context.stderr.write(HumanFormatter.render([file]))
      throw .failure(
        "'\(loaded.displayPath)' has errors (above); nothing was written. Fix them "
          + "('roadmapctl validate \(input)') and run again.")
    }
    return report.features
  }

  /// A status map file, or the defaults when `path` is nil.
  static func statusMap(_ path: String?, context: CommandContext) throws(CommandError)
    -> StatusMap
  {
    guard let path else { return StatusMap() }
    let bytes = try InputLoader.readFile(path, context: context)
    do {
      return try StatusMap.read(bytes)
    } catch {
      // Not JSON at all (a file cut short, say): where, as `votes import` says it.
      if let syntax = JSONSyntaxCheck.describe(bytes, file: path) {
        throw .failure("cannot use the status map: \(syntax)")
      }
      throw .failure("cannot use the status map '\(path)': \(error.message)")
    }
  }

  /// A VoteFirst export document (file or `-`).
  static func export(_ input: String, context: CommandContext) async throws(CommandError)
    -> ProjectExport
  {
    let loaded = try await InputLoader.load(input, context: context)
    do {
      return try VoteFirstCoding.decode(ProjectExport.self, from: Data(loaded.bytes))
    } catch let error as DecodingError {
      if let syntax = JSONSyntaxCheck.describe(loaded.bytes, file: loaded.displayPath) {
        throw .failure("cannot read the VoteFirst export: \(syntax)")
      }
      throw .failure(
        "cannot read the VoteFirst export '\(loaded.displayPath)': \(error.readableDescription)")
    } catch {
      throw .failure("cannot read the VoteFirst export '\(loaded.displayPath)': \(error)")
    }
  }

  /// Writes `bytes` to `output` (replaced atomically), or to standard output for nil or `-`.
  static func write(_ bytes: [UInt8], to output: String?, context: CommandContext)
    throws(CommandError)
  {
    guard let output, output != "-" else {
      context.stdout.write(bytes: bytes)
      // Said now, before any line that reports the document as written.
      if let failure = context.stdout.claimFailure() {
        throw .failure("cannot write standard output: \(failure)")
      }
      return
    }
    try OutputFile.write(bytes, to: context.resolvePath(output), shown: output)
  }

  /// An export as pretty JSON with the contract's keys and dates, and a final newline.
  static func exportBytes(_ export: ProjectExport) throws(CommandError) -> [UInt8] {
    let encoder = VoteFirstCoding.makeEncoder()
    encoder.outputFormatting.insert(.prettyPrinted)
    do {
      return Array(try encoder.encode(export)) + [0x0A]
    } catch {
      throw .failure("cannot write the export: \(error)")
    }
  }

  /// The loss report's entries as lines for standard error.
  static func lossLines(_ report: LossReport) -> [String] {
    report.entries.map { entry in
      let verb = entry.kind == .dropped ? "not carried" : "altered"
      return "\(verb): feature \(entry.feature), \(entry.field): \(entry.reason)"
    }
  }
}
