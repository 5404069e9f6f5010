/// A `roadmapctl` command: a static configuration and an async `run`.
///
/// A command is a type, usually an empty struct. Its ``configuration`` holds the name, the help
/// texts and ONE table of ``Parameter`` values that drives both parsing and help, so the two
/// cannot drift. The framework parses the arguments against that table and hands the values,
/// together with the output writers, the environment and the working directory, to ``run(_:)``
/// in a ``CommandContext``:
///
/// ```swift
/// struct GreetCommand: Command {
///   static let configuration = CommandConfiguration(
///     name: "greet", abstract: "Say hello.",
///     parameters: [
///       .argument("name", help: "Who to greet."),
///       .flag("loud", help: "Shout."),
///     ])
///
///   func run(_ context: CommandContext) async throws -> Int32 {
///     let name = context.values.string("name") ?? ""
///     context.stdout.writeLine(context.values.flag("loud") ? "HELLO \(name)!" : "Hello \(name).")
///     return 0
///   }
/// }
/// ```
///
/// Register it with one line in `RoadmapctlCommand.configuration.subcommands` (Commands.swift).
/// A command with `subcommands` is a group (`votes export`); a group's default `run` shows its
/// help. Throw a ``CommandError`` for usage (exit 64) or other failures (exit 1 or a chosen code).
public protocol Command: Sendable {
  /// The command's name, help texts, parameter table and subcommands.
  static var configuration: CommandConfiguration { get }

  /// Creates the command; commands are usually empty structs.
  init()

  /// Runs the command with its parsed values and I/O, and returns the process exit code.
  func run(_ context: CommandContext) async throws -> Int32
}

extension Command {
  /// Shows the command's help: the default for groups that only hold subcommands.
  public func run(_ context: CommandContext) async throws -> Int32 {
    throw CommandError.helpRequested
  }
}
