import Foundation
import TestProcess

/// A `python3` child process running a script, with its standard output read line by line.
final class PythonProcess: @unchecked Sendable {
  private let process: Subprocess
  private let output = Pipe()
  private var buffer = Data()

  init(script: String, arguments: [String]) throws {
    process = try Subprocess(
      "/usr/bin/env", ["python3", "-c", script] + arguments, stdout: .pipe(output),
      stderr: .inherit)
  }

  /// A child still running when the test lets go of it (a failed expectation, a throw before
  /// ``kill()``) is killed: some sleep for minutes.
  deinit { process.signal(SIGKILL) }

  /// Blocks until the child prints `line`; throws if it exits first.
  func waitForLine(_ line: String) throws {
    while true {
      if let text = String(data: buffer, encoding: .utf8),
        text.split(separator: "\n").contains(Substring(line))
      {
        return
      }
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty {
        let status = process.waitUntilExit()
        throw PythonError(message: "python exited (\(status)) before \(line)")
      }
      buffer.append(chunk)
    }
  }

  /// Sends SIGKILL and waits for the child to be gone.
  func kill() {
    process.signal(SIGKILL)
    process.waitUntilExit()
  }

  /// Waits for the child to exit and returns its status.
  func wait() -> Int32 {
    process.waitUntilExit()
  }
}

struct PythonError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// Starts `script` in `python3` with `arguments` (as `sys.argv[1...]`).
func startPython(_ script: String, arguments: [String]) throws -> PythonProcess {
  try PythonProcess(script: dedent(script), arguments: arguments)
}

/// Runs `script` to completion; throws when it fails.
func runPython(_ script: String, arguments: [String]) async throws {
  let child = try startPython(script, arguments: arguments)
  let status = child.wait()
  if status != 0 { throw PythonError(message: "python exited with \(status)") }
}

private func dedent(_ script: String) -> String {
  script.split(separator: "\n", omittingEmptySubsequences: false)
    .map { line in line.hasPrefix("      ") ? String(line.dropFirst(6)) : String(line) }
    .joined(separator: "\n")
}
