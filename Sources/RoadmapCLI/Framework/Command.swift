/// A `roadmapctl` command: a static configuration, typed parameter declarations, and `run`.
///
/// A command is a struct. Its ``configuration`` holds the name, the help texts and the
/// subcommands; its stored properties declare what it accepts with `@Argument`, `@Option`,
/// `@Flag` and `@OptionGroup`. Each declaration is written once (name, type, default, help,
/// validation, environment variable) and drives parsing, help and the value `run` reads, so
/// they cannot drift, and a command can neither read a parameter it did not declare nor read
/// one as the wrong type:
///
/// ```swift
/// struct GreetCommand: Command {
///   static let configuration = CommandConfiguration(name: "greet", abstract: "Say hello.")
///
///   @Argument(help: "Who to greet.")
///   var name: String
///
///   @Option(help: "How many times.", validate: { $0 > 0 ? nil : "--times must be 1 or more." })
///   var times: Int = 1
///
///   @Flag(help: "Shout.")
///   var loud: Bool
///
///   func run(_ context: CommandContext) async throws -> Int32 {
///     let line = loud ? "HELLO \(name.uppercased())!" : "Hello \(name)."
///     for _ in 0..<times { context.stdout.writeLine(line) }
///     return 0
///   }
/// }
/// ```
///
/// Register it with one line in `RoadmapctlCommand.configuration.subcommands` (Commands.swift).
/// A command with `subcommands` is a group (`votes export`); a group's default `run` shows its
/// help. Checks across several parameters go in ``ParsableArguments/validate()``. Throw a
/// ``CommandError`` for usage (exit 64) or other failures (exit 1 or a chosen code).
public protocol Command: ParsableArguments {
  /// The command's name, help texts and subcommands.
  static var configuration: CommandConfiguration { get }

  /// Runs the command with its parsed parameters and I/O, and returns the process exit code.
  func run(_ context: CommandContext) async throws -> Int32
}

extension Command {
  /// Shows the command's help: the default for groups that only hold subcommands.
  public func run(_ context: CommandContext) async throws -> Int32 {
    throw CommandError.helpRequested
  }
}
