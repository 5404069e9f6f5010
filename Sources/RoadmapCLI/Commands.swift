/// The root of the command tree, `roadmapctl`, and the registry of its subcommands.
///
/// To add a command: write a type conforming to ``Command`` (see Command.swift for an example)
/// and add ONE line for it to `subcommands` below. A group such as `votes` is a command whose
/// configuration lists its own subcommands (`votes export`, `votes import`).
struct RoadmapctlCommand: Command {
  static let configuration = CommandConfiguration(
    name: "roadmapctl",
    abstract: "Validate, inspect and serve the Roadmap JSON of AvdLee/Roadmap apps.",
    subcommands: [
      ValidateCommand.self,
      ShowCommand.self,
      SchemaCommand.self,
      VotesCommand.self,
      ServeCommand.self,
      BackupCommand.self,
      RestoreCommand.self,
      ConvertCommand.self,
      MigrateCommand.self,
      PublishCommand.self,
      ReconcileCommand.self,
    ])
}
