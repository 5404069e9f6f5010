import Foundation

/// Runs a ``ConsoleTranscript`` in one `/bin/sh`, in a temporary copy of the package (so a
/// command that writes files cannot touch the checkout), with the built `roadmapctl` first on
/// PATH, and splits the output back into the commands' outputs.
///
/// One shell for the whole block, so `cd`, `export NAME=value` and `echo $?` behave as they did
/// in the terminal the transcript was copied from.
enum TranscriptRunner {
  struct Outcome: Sendable {
    /// The output of each step, as lines (stdout and stderr interleaved).
    var outputs: [[String]]
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The separator printed between steps; no command prints it.
  static let marker = "\u{1E}\u{1E}transcript-step"

  /// Runs every step of `transcript` and returns their outputs (skipped steps give `[]`).
  static func run(_ transcript: ConsoleTranscript, packageRoot: URL) async throws -> Outcome {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let copy = directory.url.appendingPathComponent("package")
    try copyPackage(from: packageRoot, to: copy)

    var script = "unset ROADMAPCTL_ADMIN_TOKEN ROADMAPCTL_POSTGRES_URL ROADMAPCTL_SERVER_TIMEOUT\n"
    for step in transcript.steps {
      // The status is saved and restored around the marker, so `echo $?` sees the last
      // command's.
      script += "__transcript_status=$?\nprintf '\\n\(marker)\\n'\n(exit $__transcript_status)\n"
      if !ConsoleTranscript.isSkipped(step.command) {
        script += step.command + "\n"
      }
    }
    let binary = try Roadmapctl.binaryURL().deletingLastPathComponent().path
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let shell = try ChildProcess(
      binary: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec 2>&1\n" + script],
      stdin: nil, environment: ["PATH": binary + ":" + path, "LC_ALL": "C.UTF-8"],
      workingDirectory: copy, keepStdinOpen: false)
    defer { shell.kill() }
    do {
      _ = try await shell.waitForExit(timeout: .seconds(120))
      try await shell.waitForOutputEnd(timeout: .seconds(10))
    } catch {
      throw Failure(description: "the transcript did not finish in 120 s: \(error)")
    }
    var parts = shell.stdoutText.components(separatedBy: "\n\(marker)\n")
    guard parts.count == transcript.steps.count + 1 else {
      throw Failure(
        description: "the shell stopped early (output: \(shell.stdoutText.suffix(2000)))")
    }
    parts.removeFirst()
    return Outcome(outputs: parts.map(lines))
  }

  /// `text` as lines, the newline that ends the last one not making an empty line after it.
  static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Copies the package's files, without `.build`, `.git` and `.swiftpm`.
  static func copyPackage(from root: URL, to destination: URL) throws {
    let manager = FileManager.default
    try manager.createDirectory(at: destination, withIntermediateDirectories: true)
    for name in try manager.contentsOfDirectory(atPath: root.path)
    where ![".build", ".git", ".swiftpm"].contains(name) {
      try manager.copyItem(
        at: root.appendingPathComponent(name), to: destination.appendingPathComponent(name))
    }
  }
}
