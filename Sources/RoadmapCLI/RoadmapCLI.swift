/// The `roadmapctl` command line, as a library so tests can run it in-process.
///
/// ``main(_:)`` runs with the process's streams; ``run(_:context:)`` with any ``CommandContext``
/// (captured output, given standard input, environment and directory). Both map outcomes the
/// way swift-argument-parser does: help to standard output with exit 0; a usage error to standard
/// error as `Error: …` then `Usage: …`, exit 64; any other failure to standard error, exit 1,
/// and so is output that could not be written to standard output (a full disk, a closed pipe).
public enum RoadmapCLI {
  /// The version `roadmapctl --version` prints.
  public static let version = "0.1.0"

  /// The exit code for a command line that cannot be used (EX_USAGE).
  public static let usageExitCode: Int32 = 64

  /// Runs `roadmapctl` with `arguments` (without the program name) and returns the exit code.
  public static func main(_ arguments: [String]) async -> Int32 {
    await run(arguments, context: CommandContext())
  }

  /// Runs `roadmapctl` with `arguments` (without the program name) in `context`.
  public static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
    await run(arguments, root: RoadmapctlCommand.self, context: context)
  }

  /// Runs `arguments` against the command tree under `root` (tests use trees of their own).
  static func run(
    _ arguments: [String],
    root: any Command.Type,
    context: CommandContext
  ) async -> Int32 {
    var path: [any Command.Type] = [root]
    var code: Int32
    do {
      code = try await dispatch(arguments, path: &path, context: context)
    } catch {
      code = report(error, path: path, context: context)
    }
    // What did not reach standard output is a failure, whatever the command concluded.
    if let failure = context.stdout.unreportedFailure {
      context.stderr.writeLine("Error: cannot write standard output: \(failure)")
      if code == 0 { code = 1 }
    }
    return code
  }

  private static func dispatch(
    _ arguments: [String],
    path: inout [any Command.Type],
    context: CommandContext
  ) async throws -> Int32 {
    var remaining = arguments[...]
    // Walk down the groups: the first word that is not an option names a subcommand.
    while let command = path.last, !command.configuration.subcommands.isEmpty,
      let token = remaining.first
    {
      if token == "--help" || token == "-h" { throw CommandError.helpRequested }
      if token == "--version" {
        context.stdout.writeLine(version)
        return 0
      }
      if token.hasPrefix("-") {
        throw CommandError.usage(
          "Unknown option '\(token)'."
            + (Suggestion.closest(to: token, in: ["--help", "--version"]).map {
              " Did you mean '\($0)'?"
            } ?? ""))
      }
      remaining = remaining.dropFirst()
      if token == "help", path.count == 1 {
        return try help(Array(remaining), root: path[0], context: context)
      }
      path.append(try subcommand(named: token, of: command))
    }

    let arguments = Array(remaining)
    let options = arguments.prefix(while: { $0 != "--" })
    if options.contains("--help") || options.contains("-h") { throw CommandError.helpRequested }
    if options.contains("--version") {
      context.stdout.writeLine(version)
      return 0
    }
    let command = path.last!.init()
    let table = ParameterTable(command)
    var context = context
    context.commandPath = path.map { $0.configuration.name }
    try table.bind(
      CommandParser.parse(arguments, table: table, environment: context.environment))
    return try await command.run(context)
  }

  /// `roadmapctl help [sub [subsub]]`: the help of the named command.
  private static func help(
    _ names: [String],
    root: any Command.Type,
    context: CommandContext
  ) throws -> Int32 {
    var path: [any Command.Type] = [root]
    for name in names where !name.hasPrefix("-") {
      path.append(try subcommand(named: name, of: path.last!))
    }
    context.stdout.write(HelpFormatter.help(for: path, isRoot: path.count == 1))
    return 0
  }

  private static func subcommand(
    named name: String,
    of command: any Command.Type
  ) throws(CommandError) -> any Command.Type {
    let subcommands = command.configuration.subcommands
    if let found = subcommands.first(where: { $0.configuration.name == name }) {
      return found
    }
    var message = "Unknown subcommand '\(name)'."
    if let suggestion = Suggestion.closest(
      to: name, in: subcommands.map { $0.configuration.name })
    {
      message += " Did you mean '\(suggestion)'?"
    }
    throw .usage(message)
  }

  /// Prints `error` the way swift-argument-parser would and returns the exit code.
  private static func report(
    _ error: any Error,
    path: [any Command.Type],
    context: CommandContext
  ) -> Int32 {
    guard let error = error as? CommandError else {
      context.stderr.writeLine("Error: \(error)")
      return 1
    }
    if error.kind == .helpRequest {
      context.stdout.write(HelpFormatter.help(for: path, isRoot: path.count == 1))
      return 0
    }
    var text = "Error: \(error.message)\n"
    if error.showsUsage {
      let name = path.map { $0.configuration.name }.joined(separator: " ")
      text += HelpFormatter.wrapUsage("Usage: \(HelpFormatter.usage(for: path))") + "\n"
      text += "  See '\(name) --help' for more information.\n"
    }
    context.stderr.write(text)
    return error.exitCode
  }
}
