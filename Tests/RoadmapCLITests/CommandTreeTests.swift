import Testing

@testable import RoadmapCLI

/// Checks every registered command (including ones other helpers add) in-process: the table is
/// well formed, help documents every row, and the parser accepts every documented option.
@Suite struct CommandTreeTests {
  /// Every command path under the root: ["validate"], ["votes", "export"], ...
  static var paths: [[String]] {
    func walk(_ command: any Command.Type, _ prefix: [String]) -> [[String]] {
      command.configuration.subcommands.flatMap { sub -> [[String]] in
        let path = prefix + [sub.configuration.name]
        return [path] + walk(sub, path)
      }
    }
    return walk(RoadmapctlCommand.self, [])
  }

  static func command(at path: [String]) -> any Command.Type {
    var command: any Command.Type = RoadmapctlCommand.self
    for name in path {
      command = command.configuration.subcommands.first { $0.configuration.name == name }!
    }
    return command
  }

  @Test func registryHasTheCoreCommands() {
    let names = Self.paths.map { $0.joined(separator: " ") }
    #expect(names.contains("validate"))
    #expect(names.contains("show"))
    #expect(names.contains("schema"))
    #expect(Set(names).count == names.count)
  }

  static func table(at path: [String]) -> ParameterTable {
    ParameterTable(command(at: path).init())
  }

  @Test(arguments: paths)
  func tableIsWellFormed(_ path: [String]) {
    let configuration = Self.command(at: path).configuration
    let table = Self.table(at: path)
    let names = table.rows.map(\.name)
    #expect(Set(names).count == names.count, "duplicate parameter names in \(path)")
    #expect(!names.contains("help") && !names.contains("version"))
    let shorts = table.rows.compactMap(\.shortName)
    #expect(Set(shorts).count == shorts.count)
    #expect(!shorts.contains("h"))
    let arguments = table.arguments
    #expect(arguments.dropLast().allSatisfy { !$0.isRepeating }, "only the last argument repeats")
    #expect(!configuration.abstract.isEmpty)
    #expect(table.rows.allSatisfy { !$0.help.isEmpty })
    #expect(
      table.rows.allSatisfy { $0.name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } })
  }

  @Test(arguments: paths)
  func helpDocumentsEveryRow(_ path: [String]) async {
    let result = await InProcess.run(["help"] + path)
    #expect(result.exitCode == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout.contains("USAGE: roadmapctl " + path.joined(separator: " ")))
    for parameter in Self.table(at: path).rows {
      #expect(result.stdout.contains(parameter.displayName), "\(parameter.name) missing in help")
    }
    let viaFlag = await InProcess.run(path + ["--help"])
    #expect(viaFlag.stdout == result.stdout)
  }

  @Test(arguments: paths)
  func parserAcceptsEveryDocumentedOption(_ path: [String]) throws {
    guard Self.command(at: path).configuration.subcommands.isEmpty else { return }
    let table = Self.table(at: path)
    var arguments: [String] = table.arguments.filter(\.isRequired).map { _ in "1" }
    for option in table.options {
      switch option.kind {
      case .flag: arguments.append("--\(option.name)")
      default: arguments += ["--\(option.name)", option.allowedValues.first ?? "1"]
      }
    }
    let values = try CommandParser.parse(arguments, table: table)
    for option in table.options {
      #expect(!values.texts(for: option.name).isEmpty)
    }
  }

  @Test(arguments: paths)
  func unknownOptionIsAUsageErrorEverywhere(_ path: [String]) async {
    let result = await InProcess.run(path + ["--no-such-option"])
    #expect(result.exitCode == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("Error: Unknown option '--no-such-option'."))
    #expect(result.stderr.contains("Usage: roadmapctl " + path.joined(separator: " ")))
  }
}
