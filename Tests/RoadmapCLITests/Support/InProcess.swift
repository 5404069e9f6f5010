import Foundation

@testable import RoadmapCLI

/// Runs `roadmapctl` in-process with captured output, for parsing, help and error tests.
///
///     let result = await InProcess.run(["validate", "--strct"])
///     #expect(result.exitCode == 64)
///     #expect(result.stderr.hasPrefix("Error: Unknown option '--strct'."))
enum InProcess {
  struct Result: Sendable, Equatable {
    var exitCode: Int32
    var stdout: String
    var stderr: String
  }

  static func run(
    _ arguments: [String],
    stdin: String = "",
    environment: [String: String] = [:],
    workingDirectory: String = FileManager.default.temporaryDirectory.path
  ) async -> Result {
    let stdout = TextOutput.capturing()
    let stderr = TextOutput.capturing()
    let context = CommandContext(
      stdout: stdout, stderr: stderr, stdin: .text(stdin), environment: environment,
      workingDirectory: workingDirectory)
    let code = await RoadmapCLI.run(arguments, context: context)
    return Result(exitCode: code, stdout: stdout.text, stderr: stderr.text)
  }
}
