/// `roadmapctl show`: what an app user in one language sees, feature by feature.
struct ShowCommand: Command {
  static let configuration = CommandConfiguration(
    name: "show",
    abstract: "Show a roadmap the way an app user in one language sees it.",
    discussion: """
      Prints each feature's resolved title, status, description and whether it is finished, so \
      you can check a translation before publishing. By default languages fall back along their \
      BCP 47 chain (zh-Hans-CN, zh-Hans, zh) and ignore case; --compatible resolves exactly as the \
      Roadmap package does, with --language as the app's first localization.
      """,
    parameters: [
      .argument("file", help: "A file, an http(s) URL, or - for standard input."),
      .option("language", default: "en", help: "The app user's language."),
      .flag("compatible", help: "Resolve languages exactly as the AvdLee/Roadmap package does."),
      .option("format", default: "table", allowed: ["table", "json"], help: "How to print it."),
    ])

  func run(_ context: CommandContext) async throws -> Int32 {
    throw CommandError.failure("show is not available yet")
  }
}
