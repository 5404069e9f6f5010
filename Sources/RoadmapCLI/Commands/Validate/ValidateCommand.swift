import FeatureVoting
import RoadmapFormat

/// `roadmapctl validate`: checks Roadmap JSON files before they are published.
struct ValidateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Check Roadmap JSON files the way apps read them, and report every problem.",
    discussion: """
      Each input is a file, an http(s) URL (fetched the way an app fetches it) or - for standard \
      input; with none, standard input is read. Exit status: 0 when no input has errors (or \
      warnings, with --strict), 1 when one has, 64 for a usage error.
      """)

  /// How `validate` prints its diagnostics.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case human, json, github
  }

  @Argument(help: "Files, http(s) URLs, or - for standard input (read when none is given).")
  var inputs: [String]

  @Option(help: "How to print the diagnostics.")
  var format: OutputFormat = .human

  @Flag(help: "Fail on warnings too.")
  var strict: Bool

  @Flag(help: "Judge exactly as the AvdLee/Roadmap package reads: one wrong type fails the file.")
  var compatible: Bool

  @Option(help: "Comma-separated languages every feature must localize (en,de).")
  var languages: [String]

  @Option(help: "Comma-separated status values allowed (planned,in-progress,finished).")
  var statuses: [String]

  @Option(
    valueName: "template",
    help: "How a feature id becomes its counter key, for the key checks; {id} is the id. "
      + "(default: feature{id})",
    validate: { (try? KeyTemplate($0)) == nil ? "--key-template must contain {id} once." : nil })
  var keyTemplate: String?

  @Option(
    valueName: "old",
    help:
      "The version already published (file, URL, or - for standard input): removed ids orphan their votes."
  )
  var previous: String?

  @Flag(help: "With --previous, accept features that were removed.")
  var allowRemoved: Bool

  /// Warnings for the languages of `--languages` not written as Xcode names localizations
  /// (`EN`, `en_US`, `pt-br`), with the usual spelling, as the validator's
  /// `malformed-language-tag` warning says for a language in a file. The app compares exactly,
  /// so `EN` is reported missing from files that have `en`; but an app whose localization
  /// folder is named so (an older project's `zh_CN.lproj`, `English.lproj`) uses that very
  /// string, so it is checked as given, not refused.
  static func languageWarnings(_ languages: [String]) -> [String] {
    languages.compactMap { language in
      ValidationOptions.problem(withLanguage: language).map {
        "warning: --languages: \(JSONText.quote(language)) \($0); checked as given."
      }
    }
  }

  func validate() throws {
    if (inputs.isEmpty ? 1 : inputs.count(where: { $0 == "-" })) + (previous == "-" ? 1 : 0) > 1 {
      throw CommandError.validation("Standard input ('-') can be read only once.")
    }
    if allowRemoved, previous == nil {
      throw CommandError.validation("--allow-removed only applies with --previous <old>.")
    }
    for input in inputs + (previous.map { [$0] } ?? []) {
      try InputLoader.checkSyntax(input)
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    // Without files, standard input is read (`… | roadmapctl validate`); from a terminal that
    // only waited, silently, for someone to type a roadmap.
    if inputs.isEmpty, context.stdin.isTerminal {
      throw CommandError.validation(
        "Give the files to check, or - to read a roadmap from standard input.")
    }
    let inputs = inputs.isEmpty ? ["-"] : inputs
    for warning in Self.languageWarnings(languages) { context.stderr.writeLine(warning) }
    let options = ValidationOptions(
      compatible: compatible,
      languages: languages.isEmpty ? nil : languages,
      statuses: statuses.isEmpty ? nil : statuses,
      keyTemplate: keyTemplate ?? KeyTemplate.roadmapDefault.template,
      allowRemoved: allowRemoved)
    let validator = RoadmapValidator(options: options)

    // A previous version that cannot be had (no such file, an HTTP error, no connection) is a
    // diagnostic of every file, as an unparsable one is: CI shows it where it shows the rest.
    var previousBytes: [UInt8]? = nil
    var previousProblem: String? = nil
    if let old = previous {
      switch await Self.load(old, context: context, mapping: false) {
      case .success(let loaded):
        if let problem = loaded.transportErrors.first {
          // Its first sentence: what the rest says is advice for a file that apps read.
          let said = problem.message.components(separatedBy: ". ").first ?? problem.message
          previousProblem = "'\(old)': \(said)"
        } else {
          previousBytes = loaded.bytes
        }
      case .failure(let error) where error.kind == .failure:
        previousProblem = error.message
      case .failure(let error):
        throw error
      }
    }

    // Each file is written as soon as it is checked, so only one file's bytes are held at once.
    var allValid = true
    var unreadable: [String] = []
    var written = 0
    if format == .json { context.stdout.write("{\"files\":[") }
    for input in inputs {
      switch await Self.load(input, context: context) {
      case .success(let loaded):
        var file = Self.validate(
          loaded, with: validator, previous: previousBytes, previousProblem: previousProblem,
          strict: strict)
        file.previousPath = previous.map { $0 == "-" ? InputLoader.standardInputName : $0 }
        allValid = allValid && file.isValid
        switch format {
        case .json: context.stdout.write((written > 0 ? "," : "") + JSONFormatter.renderFile(file))
        case .github:
          context.stdout.write(
            GitHubFormatter.render(
              [file], strict: strict, workspace: context.environment["GITHUB_WORKSPACE"]))
        case .human: context.stdout.write(HumanFormatter.render([file]))
        }
        written += 1
      case .failure(let error) where error.kind == .failure:
        unreadable.append(error.message)
      case .failure(let error):
        throw error
      }
    }
    if format == .json { context.stdout.write("]}\n") }
    for message in unreadable {
      context.stderr.writeLine("Error: \(message)")
    }
    return unreadable.isEmpty && allValid ? 0 : 1
  }

  /// Loads one input, keeping a failure as a value so the other inputs still run.
  static func load(_ input: String, context: CommandContext, mapping: Bool = true) async
    -> Result<LoadedInput, CommandError>
  {
    do {
      return .success(try await InputLoader.load(input, context: context, mapping: mapping))
    } catch {
      return .failure(error)
    }
  }

  /// Validates one loaded input; transport errors (HTTP status, HTML) replace the JSON checks,
  /// transport warnings (an HTML content type) come before them.
  static func validate(
    _ input: LoadedInput,
    with validator: RoadmapValidator,
    previous: [UInt8]?,
    previousProblem: String? = nil,
    strict: Bool
  ) -> ValidatedFile {
    var diagnostics = input.transportProblems
    if let previousProblem {
      diagnostics.append(
        Diagnostic(
          code: "previous-unreadable", severity: validator.options.allowRemoved ? .warning : .error,
          message: "the previous version cannot be read (\(previousProblem)), so removed ids "
            + "were not checked",
          path: "", line: 1, column: 1))
    }
    var featureCount = 0
    var knownLines: [KnownLine] = []
    var unlisted: [Severity: Int] = [:]
    var document = input.document
    if input.transportErrors.isEmpty {
      let report = validator.validate(input.document, previous: previous)
      diagnostics += report.diagnostics
      // Judged as the app reads, a file it rejects loads no feature at all.
      featureCount =
        validator.options.compatible && report.rejectedByRoadmap ? 0 : report.featureCount
      knownLines = report.knownLines
      unlisted = report.unlisted
      // A UTF-16 or UTF-32 file: excerpts come from the UTF-8 text the positions refer to.
      if let text = report.convertedText { document = DocumentBytes(text) }
    }
    for index in diagnostics.indices {
      diagnostics[index].line = max(1, diagnostics[index].line)
      diagnostics[index].column = max(1, diagnostics[index].column)
    }
    let failing = diagnostics.contains {
      $0.severity == .error || (strict && $0.severity == .warning)
    }
    var file = ValidatedFile(
      displayPath: input.displayPath, document: document, knownLines: knownLines,
      diagnostics: diagnostics, featureCount: featureCount, isValid: !failing)
    file.unlisted = unlisted
    return file
  }
}
