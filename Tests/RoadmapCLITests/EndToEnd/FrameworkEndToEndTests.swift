import Foundation
import Testing

@testable import RoadmapCLI

/// The real binary's manners: help, version, usage errors and exit codes.
@Suite struct FrameworkEndToEndTests {
  @Test(arguments: [["--help"], ["-h"], ["help"], []])
  func helpGoesToStdoutWithExit0(_ arguments: [String]) async throws {
    let result = try await Roadmapctl.run(arguments)
    #expect(result.exitCode == 0)
    #expect(result.stderrText.isEmpty)
    #expect(result.stdoutText.hasPrefix("OVERVIEW: "))
    for section in [
      "USAGE: roadmapctl <subcommand>", "OPTIONS:", "SUBCOMMANDS:", "validate", "show", "schema",
    ] {
      #expect(result.stdoutText.contains(section))
    }
  }

  @Test(arguments: ["validate", "show", "schema"])
  func subcommandHelp(_ name: String) async throws {
    let viaFlag = try await Roadmapctl.run([name, "--help"])
    let viaHelp = try await Roadmapctl.run(["help", name])
    #expect(viaFlag.exitCode == 0)
    #expect(viaFlag.stdoutText.contains("USAGE: roadmapctl \(name)"))
    #expect(viaFlag.stdout == viaHelp.stdout)
    #expect(viaHelp.exitCode == 0)
  }

  @Test func version() async throws {
    let result = try await Roadmapctl.run(["--version"])
    #expect(result.exitCode == 0)
    #expect(result.stdoutText == RoadmapCLI.version + "\n")
  }

  @Test func unknownOptionIsAUsageError() async throws {
    let result = try await Roadmapctl.run(["validate", "--strikt"])
    #expect(result.exitCode == 64)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderrText.hasPrefix(
        "Error: Unknown option '--strikt'. Did you mean '--strict'?\nUsage: roadmapctl validate "))
  }

  @Test func unknownSubcommandIsAUsageError() async throws {
    let result = try await Roadmapctl.run(["valdate"])
    #expect(result.exitCode == 64)
    #expect(
      result.stderrText.hasPrefix("Error: Unknown subcommand 'valdate'. Did you mean 'validate'?\n")
    )
  }

  /// More than the 64 KiB a pipe holds: the support drains before it waits.
  @Test func drainsOutputLargerThanAPipe() async throws {
    let huge = "--" + String(repeating: "x", count: 100_000)
    let result = try await Roadmapctl.run(["validate", huge])
    #expect(result.exitCode == 64)
    #expect(result.stderr.count > 100_000)
  }
}
