/// `roadmapctl schema`: prints the JSON Schema of the Roadmap format.
struct SchemaCommand: Command {
  static let configuration = CommandConfiguration(
    name: "schema",
    abstract: "Print the JSON Schema (2020-12) of the Roadmap format, for editors and CI.")

  func run(_ context: CommandContext) async throws -> Int32 {
    throw CommandError.failure("schema is not available yet")
  }
}
