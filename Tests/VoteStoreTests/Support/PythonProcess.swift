import Foundation

/// A `python3` child process running a script, with its standard output read line by line.
final class PythonProcess: @unchecked Sendable {
  private let process = Process()
  private let output = Pipe()
  private var buffer = Data()

  init(script: String, arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
  }

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
        process.waitUntilExit()
        throw PythonError(message: "python exited (\(process.terminationStatus)) before \(line)")
      }
      buffer.append(chunk)
    }
  }

  /// Sends SIGKILL and waits for the child to be gone.
  func kill() {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// Waits for the child to exit and returns its status.
  func wait() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
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
