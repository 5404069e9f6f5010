import FeatureVoting
import RoadmapFormat

/// `roadmapctl show`: what an app user in one language sees, feature by feature.
struct ShowCommand: Command {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show a roadmap the way an app user in one language sees it.",
    discussion: """
      Prints each feature's resolved title, status, description and whether it is finished, so \
      you can check a translation before publishing. By default languages fall back along their \
      BCP 47 chain (zh-Hans-CN, zh-Hans, zh) and ignore case; --compatible resolves exactly as the \
      Roadmap package does, with --language as the app's first localization. With --votes-from \
      it adds each feature's vote count, read from a counting API (one request for the whole \
      board from roadmapctl serve), and --sort votes puts the most voted first.
      """)

  /// How `show` prints the features.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table, json
  }

  @Argument(help: "A file, an http(s) URL, or - for standard input.")
  var file: String

  @Option(
    help: "The app's first localization (compatible) or the user's preferred languages, "
      + "comma-separated (de-AT,en).",
    validate: { $0.isEmpty ? "--language needs a language, such as 'de'." : nil })
  var language: [String] = ["en"]

  @Flag(help: "Resolve languages exactly as the AvdLee/Roadmap package does.")
  var compatible: Bool

  @Option(help: "How to print it.")
  var format: OutputFormat = .table

  @Option(
    valueName: "url",
    help: "Add each feature's vote count, read from this counting API (http or https).",
    validate: { ShowVotes.problem(with: $0) })
  var votesFrom: String?

  @Option(help: "The counting API's protocol, with --votes-from. (default: roadmapctl)")
  var dialect: ShowVotes.Dialect?

  @Option(
    valueName: "ns",
    help: "The counters' namespace, with --votes-from (the Roadmap package uses the app's "
      + "bundle identifier). (default: default)",
    validate: { $0.isEmpty ? "--namespace needs a namespace, such as com.example.app." : nil })
  var namespace: String?

  @Option(
    valueName: "template",
    help: "How a feature id becomes a counter key, with --votes-from; {id} is the id. "
      + "(default: feature{id})",
    validate: { (try? KeyTemplate($0)) == nil ? "--key-template must contain {id} once." : nil })
  var keyTemplate: String?

  @Option(help: "The order of the features: as in the file, or most votes first.")
  var sort: ShowVotes.Order = .file

  func validate() throws {
    if compatible, language.count > 1 {
      throw CommandError.validation(
        "--compatible resolves one localization, as the Roadmap package does; give one language.")
    }
    if votesFrom == nil {
      // Where the counts come from, without a place to read them: a forgotten --votes-from.
      let given = [
        dialect.map { _ in "--dialect" }, namespace.map { _ in "--namespace" },
        keyTemplate.map { _ in "--key-template" },
      ].compactMap { $0 }
      if let first = given.first {
        throw CommandError.validation(
          "\(first) says how to read the votes from --votes-from URL, which is not given.")
      }
    }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let languages = language
    let input = file
    // As the app's localization, a language is compared exactly: `EN` or `en_US` shows what the
    // app shows only when its localization folder has that very name, so say so and go on.
    // (Without --compatible the user's languages fall back and ignore case: `EN` finds `en`.)
    if compatible, let given = language.first,
      let problem = ValidationOptions.problem(withLanguage: given)
    {
      context.stderr.writeLine(
        "warning: --language: \(JSONText.quote(given)) \(problem); shown as given.")
    }
    let loaded = try await InputLoader.load(input, context: context)
    if !loaded.transportProblems.isEmpty {
      context.stderr.write(Self.describe(loaded.transportProblems, in: loaded))
      if !loaded.transportErrors.isEmpty { return 1 }
    }
    let document: RoadmapDocument
    do {
      document = try RoadmapDocument.read(loaded.bytes, mode: compatible ? .compatible : .lenient)
    } catch {
      context.stderr.write(Self.describe([error.diagnostic], in: loaded))
      context.stderr.writeLine(
        "The Roadmap package rejects this file and shows an empty roadmap.")
      return 1
    }
    if !document.diagnostics.isEmpty {
      context.stderr.write(Self.describe(document.diagnostics, in: loaded))
    }
    let resolver =
      compatible
      ? LanguageResolver.roadmapCompatible(localization: languages[0])
      : LanguageResolver.fallback(preferredLanguages: languages)
    var features = document.features.map(resolver.resolve)
    for note in ShowLanguageNotes.notes(
      for: document.features, resolved: features, resolver: resolver, languages: languages,
      path: loaded.displayPath)
    {
      context.stderr.writeLine(note)
    }
    if let votesFrom {
      do {
        let read = try await ShowVotes.counts(
          of: document.features, server: votesFrom, dialect: dialect ?? .roadmapctl,
          namespace: namespace ?? "default", keys: try KeyTemplate(keyTemplate ?? "feature{id}"))
        for (id, reason) in read.refused {
          context.stderr.writeLine(
            "\(loaded.displayPath): note: the votes of feature \(JSONText.quote(id)) are not "
              + "shown (-): \(reason)")
        }
        features = ShowVotes.apply(
          read.counts, refused: Set(read.refused.map(\.id)), to: features)
      } catch {
        context.stderr.writeLine("Error: cannot read the votes from \(votesFrom): \(error)")
        return 1
      }
    }
    if sort == .votes { features = ShowVotes.sortedByVotes(features) }
    if format == .json {
      context.stdout.write(
        ShowFormatter.json(features, languages: languages, compatible: compatible))
    } else {
      context.stdout.write(ShowFormatter.table(features, votes: votesFrom != nil))
    }
    return 0
  }

  /// Diagnostics as human lines with source excerpts, for standard error.
  static func describe(_ diagnostics: [Diagnostic], in input: LoadedInput) -> String {
    let file = ValidatedFile(
      displayPath: input.displayPath,
      bytes: RoadmapDocument.convertedText(of: input.bytes) ?? input.bytes,
      diagnostics: diagnostics, featureCount: 0, isValid: false)
    return HumanFormatter.render([file], summaries: false)
  }
}
