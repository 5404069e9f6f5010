/// `roadmapctl validate`: checks Roadmap JSON files before they are published.
struct ValidateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "validate",
    abstract: "Check Roadmap JSON files the way apps read them, and report every problem.",
    discussion: """
      Each input is a file, an http(s) URL (fetched the way an app fetches it) or - for standard \
      input; with none, standard input is read. Exit status: 0 when no input has errors (or \
      warnings, with --strict), 1 when one has, 64 for a usage error.
      """,
    parameters: [
      .argument(
        "inputs", repeating: true, required: false,
        help: "Files, http(s) URLs, or - for standard input."),
      .option(
        "format", default: "human", allowed: ["human", "json", "github"],
        help: "How to print the diagnostics."),
      .flag("strict", help: "Fail on warnings too."),
      .flag(
        "compatible",
        help: "Judge exactly as the AvdLee/Roadmap package reads: one wrong type fails the file."),
      .option(
        "languages", valueName: "languages",
        help: "Comma-separated languages every feature must localize (en,de)."),
      .option(
        "statuses", valueName: "statuses",
        help: "Comma-separated status values allowed (planned,in-progress,finished)."),
      .option(
        "previous", valueName: "old",
        help: "The version already published (file or URL): removed ids orphan their votes."),
      .flag("allow-removed", help: "With --previous, accept features that were removed."),
    ])

  func run(_ context: CommandContext) async throws -> Int32 {
    throw CommandError.failure("validate is not available yet")
  }
}
