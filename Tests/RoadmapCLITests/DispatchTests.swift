import Testing

@testable import RoadmapCLI

/// A small command tree of its own, to test dispatch, groups, help and error mapping in-process.
private struct ProbeRoot: Command {
  static let configuration = CommandConfiguration(
    name: "probe", abstract: "A probe tool.",
    subcommands: [EchoCommand.self, VotesGroup.self, FailCommand.self])
}

private struct EchoCommand: Command {
  static let configuration = CommandConfiguration(
    name: "echo", abstract: "Echo the words.",
    discussion: "Prints its words, separated by spaces.")

  @Argument(help: "The words.")
  var words: [String]

  @Flag(help: "Upper-case them.")
  var upper: Bool

  @Option(help: "Between words.")
  var separator: String = ","

  func run(_ context: CommandContext) async throws -> Int32 {
    var text = words.joined(separator: separator)
    if upper { text = text.uppercased() }
    context.stdout.writeLine(text)
    context.stderr.writeLine(
      "cwd=\(context.workingDirectory) env=\(context.environment["X"] ?? "")")
    return 0
  }
}

private struct VotesGroup: Command {
  static let configuration = CommandConfiguration(
    name: "votes", abstract: "Move votes.", subcommands: [ExportCommand.self])
}

private struct ExportCommand: Command {
  static let configuration = CommandConfiguration(name: "export", abstract: "Export votes.")

  @Option(help: "Where to.")
  var out: String

  func run(_ context: CommandContext) async throws -> Int32 {
    context.stdout.writeLine("exported to \(out) by \(context.commandName)")
    return 0
  }
}

private struct FailCommand: Command {
  static let configuration = CommandConfiguration(
    name: "fail", abstract: "Fail in a chosen way.")

  enum How: String, CaseIterable, ExpressibleByArgument {
    case usage, validation, failure, exit3, help, other
  }

  @Argument(help: "How to fail.")
  var how: How

  struct Other: Error, CustomStringConvertible {
    var description: String { "something else broke" }
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    switch how {
    case .usage: throw CommandError.usage("bad usage")
    case .validation: throw CommandError.validation("--a needs --b")
    case .failure: throw CommandError.failure("could not read 'x.json': no such file")
    case .exit3: throw CommandError.failure("three", exitCode: 3)
    case .help: throw CommandError.helpRequested
    case .other: throw Other()
    }
  }
}

@Suite struct DispatchTests {
  func run(
    _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
  ) async -> InProcess.Result {
    let stdout = TextOutput.capturing()
    let stderr = TextOutput.capturing()
    let context = CommandContext(
      stdout: stdout, stderr: stderr, stdin: .text(stdin), environment: environment,
      workingDirectory: "/tmp/probe")
    let code = await RoadmapCLI.run(arguments, root: ProbeRoot.self, context: context)
    return InProcess.Result(exitCode: code, stdout: stdout.text, stderr: stderr.text)
  }

  @Test func runsASubcommandWithContext() async {
    let result = await run(
      ["echo", "a", "b", "--upper", "--separator", " "], environment: ["X": "42"])
    #expect(result.exitCode == 0)
    #expect(result.stdout == "A B\n")
    #expect(result.stderr == "cwd=/tmp/probe env=42\n")
  }

  @Test func runsASubSubcommand() async {
    let result = await run(["votes", "export", "--out", "v.json"])
    #expect(
      result == .init(exitCode: 0, stdout: "exported to v.json by probe votes export\n", stderr: "")
    )
  }

  static let helpInvocations: [[String]] = [
    [], ["--help"], ["-h"], ["help"], ["help", "--help"],
  ]

  @Test(arguments: helpInvocations)
  func rootHelp(_ arguments: [String]) async {
    let result = await run(arguments)
    #expect(result.exitCode == 0)
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdout == """
        OVERVIEW: A probe tool.

        USAGE: probe <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          echo                    Echo the words.
          votes                   Move votes.
          fail                    Fail in a chosen way.

          See 'probe help <subcommand>' for detailed help.

        """)
  }

  static let echoHelpInvocations: [[String]] = [
    ["echo", "--help"], ["echo", "-h"], ["help", "echo"], ["echo", "a", "--help", "--bogus"],
  ]

  @Test(arguments: echoHelpInvocations)
  func subcommandHelp(_ arguments: [String]) async {
    let result = await run(arguments)
    #expect(result.exitCode == 0)
    #expect(
      result.stdout == """
        OVERVIEW: Echo the words.

        Prints its words, separated by spaces.

        USAGE: probe echo [<words> ...] [--upper] [--separator <separator>]

        ARGUMENTS:
          <words>                 The words.

        OPTIONS:
          --upper                 Upper-case them.
          --separator <separator>
                                  Between words. (default: ,)
          -h, --help              Show help information.

        """)
  }

  @Test func groupHelpAndSubSubcommandHelp() async {
    let group = await run(["votes"])
    #expect(group.exitCode == 0)
    #expect(group.stdout.contains("USAGE: probe votes <subcommand>"))
    #expect(group.stdout.contains("See 'probe help votes <subcommand>' for detailed help."))
    let sub = await run(["help", "votes", "export"])
    #expect(sub.exitCode == 0)
    #expect(sub.stdout.contains("USAGE: probe votes export --out <out>"))
    #expect(await run(["votes", "export", "-h"]).stdout == sub.stdout)
  }

  @Test(arguments: [["--version"], ["echo", "--version"]])
  func version(_ arguments: [String]) async {
    let result = await run(arguments)
    #expect(result == .init(exitCode: 0, stdout: RoadmapCLI.version + "\n", stderr: ""))
  }

  static let usageErrors: [(arguments: [String], stderr: String)] = [
    (
      ["ecoh"],
      "Error: Unknown subcommand 'ecoh'. Did you mean 'echo'?\nUsage: probe <subcommand>\n"
        + "  See 'probe --help' for more information.\n"
    ),
    (
      ["--verison"],
      "Error: Unknown option '--verison'. Did you mean '--version'?\nUsage: probe <subcommand>\n"
        + "  See 'probe --help' for more information.\n"
    ),
    (
      ["echo", "--uper"],
      "Error: Unknown option '--uper'. Did you mean '--upper'?\n"
        + "Usage: probe echo [<words> ...] [--upper] [--separator <separator>]\n"
        + "  See 'probe echo --help' for more information.\n"
    ),
    (
      ["votes", "export"],
      "Error: Missing expected argument '--out <out>'.\nUsage: probe votes export --out <out>\n"
        + "  See 'probe votes export --help' for more information.\n"
    ),
    (
      ["help", "nope"],
      "Error: Unknown subcommand 'nope'.\nUsage: probe <subcommand>\n"
        + "  See 'probe --help' for more information.\n"
    ),
    (
      ["fail", "usage"],
      "Error: bad usage\nUsage: probe fail <how>\n  See 'probe fail --help' for more information.\n"
    ),
    (
      ["fail", "validation"],
      "Error: --a needs --b\nUsage: probe fail <how>\n"
        + "  See 'probe fail --help' for more information.\n"
    ),
  ]

  @Test(arguments: usageErrors)
  func usageErrorsExit64(_ arguments: [String], stderr: String) async {
    let result = await run(arguments)
    #expect(result == .init(exitCode: 64, stdout: "", stderr: stderr))
  }

  @Test func failuresGoToStderr() async {
    #expect(
      await run(["fail", "failure"])
        == .init(exitCode: 1, stdout: "", stderr: "Error: could not read 'x.json': no such file\n"))
    #expect(
      await run(["fail", "exit3"]) == .init(exitCode: 3, stdout: "", stderr: "Error: three\n"))
    #expect(
      await run(["fail", "other"])
        == .init(exitCode: 1, stdout: "", stderr: "Error: something else broke\n"))
    let help = await run(["fail", "help"])
    #expect(help.exitCode == 0)
    #expect(help.stdout.hasPrefix("OVERVIEW: Fail in a chosen way."))
  }

  @Test func terminatorPassesOptionsAsArguments() async {
    let result = await run(["echo", "--separator=+", "--", "--help", "-h"])
    #expect(result.exitCode == 0)
    #expect(result.stdout == "--help+-h\n")
  }

  @Test func longHelpTextWrapsAtTheHelpColumn() {
    let text = HelpFormatter.wrap(String(repeating: "word ", count: 30), indent: 26)
    for line in text.split(separator: "\n") {
      #expect(line.count <= HelpFormatter.width)
      #expect(line.hasPrefix(String(repeating: " ", count: 26)))
    }
  }

  @Test func resolvesPathsAgainstTheWorkingDirectory() {
    let context = CommandContext(workingDirectory: "/srv/app")
    #expect(context.resolvePath("roadmap.json") == "/srv/app/roadmap.json")
    #expect(context.resolvePath("../x.json") == "/srv/x.json")
    #expect(context.resolvePath("/abs.json") == "/abs.json")
  }
}
