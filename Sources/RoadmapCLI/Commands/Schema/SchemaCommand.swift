import RoadmapFormat

/// `roadmapctl schema`: prints the JSON Schema of the Roadmap format.
struct SchemaCommand: Command {
  static let configuration = CommandConfiguration(
    name: "schema",
    abstract: "Print the JSON Schema (2020-12) of the Roadmap format, for editors and CI.",
    discussion: """
      The schema checks shapes and types only; unique ids, counter-key characters, duplicate \
      keys and the warnings need 'roadmapctl validate'. Samples/roadmap.schema.json holds the same \
      text.
      """)

  func run(_ context: CommandContext) async throws -> Int32 {
    let schema = RoadmapSchema.json
    context.stdout.write(schema.hasSuffix("\n") ? schema : schema + "\n")
    return 0
  }
}
