// End-to-end test support: runs the REAL built `roadmapctl` binary.
//
// The binary is built with the tests (RoadmapCLITests depends on the `roadmapctl` target) and sits
// next to the test bundle in .build/<config>/. `ROADMAPCTL_BINARY=/path/to/roadmapctl` overrides.
//
// Run it to completion (stdout and stderr are drained concurrently BEFORE waiting, so output over
// the 64 KiB pipe buffer cannot deadlock; a timeout kills it and throws):
//
//   let result = try await Roadmapctl.run(
//     ["validate", "roadmap.json", "--format", "json"],
//     stdin: nil,                          // or Array("...".utf8); nil means /dev/null
//     environment: ["KEY": "value"],       // added to this process's environment
//     workingDirectory: directory,         // a URL; relative paths resolve against it
//     timeout: .seconds(60))
//   #expect(result.exitCode == 1)
//   #expect(result.stdoutText.contains("duplicate-id"))
//   #expect(result.stderrText.isEmpty)
//
// Start it as a long-running child (for `serve`), read its stdout line by line, signal it, end it:
//
//   let server = try Roadmapctl.start(["serve", "--port", "0", "--data-dir", dir.path])
//   defer { server.kill() }                               // SIGKILL, idempotent
//   let line = try await server.readLine(timeout: .seconds(30))   // nil at end of output
//   let url = try await server.waitForLine(containing: "http://", timeout: .seconds(30))
//   server.signal(SIGTERM)                                // any signal
//   (start(..., keepStdinOpen: true) gives a stdin to feed with writeStdin(_:) and closeStdin())
//   let status = try await server.waitForExit(timeout: .seconds(30))
//   print(server.stderrText)                              // everything it wrote to stderr so far
//
// Every test should give the child its own temporary directory (see TemporaryDirectory.swift).
import Foundation
import TestProcess
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a finished `roadmapctl` run produced.
struct ProcessResult: Sendable {
  /// The exit status, or 128 + signal number when a signal ended it.
  var exitCode: Int32
  /// Everything written to standard output.
  var stdout: [UInt8]
  /// Everything written to standard error.
  var stderr: [UInt8]
  /// Standard output as UTF-8 text.
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  /// Standard error as UTF-8 text.
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// A child process that did not finish in time, with what it printed until then.
struct ProcessTimeout: Error, CustomStringConvertible {
  var arguments: [String]
  var timeout: Duration
  var stdout: String
  var stderr: String
  var description: String {
    "roadmapctl \(arguments.joined(separator: " ")) did not finish within \(timeout); "
      + "stdout: \(stdout.suffix(2000)) stderr: \(stderr.suffix(2000))"
  }
}

/// Runs the built `roadmapctl` binary.
enum Roadmapctl {
  /// The built binary: $ROADMAPCTL_BINARY, else next to the test bundle, else .build/debug.
  static func binaryURL() throws -> URL {
    try BuiltProduct.url(named: "roadmapctl", override: "ROADMAPCTL_BINARY")
  }

  /// Runs `roadmapctl arguments` to completion and returns its exit code and output.
  /// `binary` runs another build of it (the release build, say) instead of ``binaryURL()``.
  static func run(
    _ arguments: [String],
    stdin: [UInt8]? = nil,
    environment: [String: String] = [:],
    workingDirectory: URL? = nil,
    timeout: Duration = .seconds(60),
    binary: URL? = nil
  ) async throws -> ProcessResult {
    let child = try start(
      arguments, stdin: stdin, environment: environment, workingDirectory: workingDirectory,
      binary: binary)
    do {
      let status = try await child.waitForExit(timeout: timeout)
      try await child.waitForOutputEnd(timeout: .seconds(10))
      return ProcessResult(exitCode: status, stdout: child.stdoutBytes, stderr: child.stderrBytes)
    } catch let error as ProcessTimeout {
      child.kill()
      throw error
    }
  }

  /// Runs another tool (python3, ...) to completion and returns its exit status.
  static func runTool(
    _ executable: String, _ arguments: [String], workingDirectory: URL? = nil,
    timeout: Duration = .seconds(60)
  ) async throws -> Int32 {
    let child = try ChildProcess.start(executable, arguments, workingDirectory: workingDirectory)
    defer { child.kill() }
    return try await child.waitForExit(timeout: timeout)
  }

  /// Starts `roadmapctl arguments` as a child process that keeps running until it exits or is
  /// killed. Its stdout and stderr are drained from the start by background threads.
  static func start(
    _ arguments: [String],
    stdin: [UInt8]? = nil,
    environment: [String: String] = [:],
    workingDirectory: URL? = nil,
    keepStdinOpen: Bool = false,
    binary: URL? = nil
  ) throws -> RunningRoadmapctl {
    try ChildProcess(
      binary: binary ?? binaryURL(), arguments: arguments, stdin: stdin, environment: environment,
      workingDirectory: workingDirectory, keepStdinOpen: keepStdinOpen)
  }
}

/// A running `roadmapctl`.
typealias RunningRoadmapctl = ChildProcess

/// A child process whose output is collected as it runs (`roadmapctl`, or a helper such as a
/// python HTTP server: `ChildProcess.start("/usr/bin/env", ["python3", script])`).
final class ChildProcess: @unchecked Sendable {
  /// Starts any executable with the same draining and controls as ``Roadmapctl/start``.
  static func start(
    _ executable: String, _ arguments: [String], workingDirectory: URL? = nil
  ) throws -> ChildProcess {
    try ChildProcess(
      binary: URL(fileURLWithPath: executable), arguments: arguments, stdin: nil,
      environment: [:], workingDirectory: workingDirectory, keepStdinOpen: false)
  }

  /// Starts a reader that copies what is written into the FIFO at `fifo` to the file `copy`.
  /// Start it before the writer, not in a child task: on a loaded machine a child task can
  /// start after the writer's time limit has run out, and the writer waits for a reader.
  static func copying(fifo: String, to copy: String) throws -> ChildProcess {
    try start("/bin/sh", ["-c", "cat \"$0\" > \"$1\"", fifo, copy])
  }

  let arguments: [String]
  private let process: Subprocess
  /// The child's process id.
  var pid: pid_t { process.pid }
  private let stdoutDrain: PipeDrain
  private let stderrDrain: PipeDrain
  private let lock = NSLock()
  private var linesRead = 0

  init(
    binary: URL, arguments: [String], stdin: [UInt8]?, environment: [String: String],
    workingDirectory: URL?, keepStdinOpen: Bool
  ) throws {
    self.arguments = arguments
    let stdoutPipe = Pipe()
    let stderrPipe = Pipe()
    let stdinPipe = stdin != nil || keepStdinOpen ? Pipe() : nil
    stdinWriter = stdinPipe?.fileHandleForWriting
    stdoutDrain = PipeDrain(stdoutPipe.fileHandleForReading)
    stderrDrain = PipeDrain(stderrPipe.fileHandleForReading)
    process = try Subprocess(
      binary.path, arguments,
      environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
      workingDirectory: workingDirectory?.path, stdin: stdinPipe.map { .pipe($0) } ?? .null,
      stdout: .pipe(stdoutPipe), stderr: .pipe(stderrPipe))
    stdoutDrain.start()
    stderrDrain.start()
    if let stdin, !keepStdinOpen, let writer = stdinWriter {
      Thread.detachNewThread {
        try? writer.write(contentsOf: Data(stdin))
        try? writer.close()
      }
    } else if let stdin {
      writeStdin(stdin)
    }
  }

  private let stdinWriter: FileHandle?

  /// Writes to the child's stdin (started with `keepStdinOpen: true`); blocks if its pipe is full.
  func writeStdin(_ bytes: [UInt8]) {
    try? stdinWriter?.write(contentsOf: Data(bytes))
  }

  /// Closes the child's stdin, so it reads end of file.
  func closeStdin() {
    try? stdinWriter?.close()
  }

  /// The child's process id.
  var processIdentifier: Int32 { process.pid }

  /// Everything the child wrote to stdout so far.
  var stdoutBytes: [UInt8] { stdoutDrain.bytes }
  /// Everything the child wrote to stderr so far.
  var stderrBytes: [UInt8] { stderrDrain.bytes }
  /// Stdout so far, as text.
  var stdoutText: String { String(decoding: stdoutBytes, as: UTF8.self) }
  /// Stderr so far, as text.
  var stderrText: String { String(decoding: stderrBytes, as: UTF8.self) }

  /// The next complete stdout line (without the newline), or nil when stdout ended first.
  func readLine(timeout: Duration = .seconds(30)) async throws -> String? {
    let deadline = ContinuousClock.now + timeout
    while true {
      let (lines, ended) = stdoutDrain.completeLines()
      let next: String? = lock.withLock {
        guard linesRead < lines.count else { return nil }
        linesRead += 1
        return lines[linesRead - 1]
      }
      if let next { return next }
      if ended { return nil }
      try await pause(until: deadline, after: timeout, what: "a line on stdout")
    }
  }

  /// Reads stdout lines until one contains `text`, and returns it.
  func waitForLine(containing text: String, timeout: Duration = .seconds(30)) async throws
    -> String
  {
    let deadline = ContinuousClock.now + timeout
    while true {
      guard let line = try await readLine(timeout: deadline - ContinuousClock.now) else {
        throw timeoutError(Duration.zero, what: "a line containing '\(text)' (stdout ended)")
      }
      if line.contains(text) { return line }
    }
  }

  /// Waits until the child's standard error (read as it comes) holds `text`; returns it.
  func waitForStderr(containing text: String, timeout: Duration = .seconds(60)) async throws
    -> String
  {
    let deadline = ContinuousClock.now + timeout
    while !stderrText.contains(text) {
      try await pause(until: deadline, after: timeout, what: "'\(text)' on stderr")
    }
    return stderrText
  }

  /// Sends `signal` (SIGTERM, SIGINT, SIGKILL…) to the child.
  func signal(_ signal: Int32) {
    process.signal(signal)
  }

  /// Waits until the child has installed its handler for `signal`, so that sending it does not
  /// take the default action (Linux; elsewhere it returns at once).
  func waitUntilCatching(_ signal: Int32, timeout: Duration = .seconds(60)) async throws {
    let deadline = ContinuousClock.now + timeout
    while !process.catches(signal) {
      guard process.isRunning else {
        throw SubprocessError(
          message: "\(arguments) exited before it caught signal \(signal); stderr: \(stderrText)")
      }
      try await pause(until: deadline, after: timeout, what: "a handler for signal \(signal)")
    }
  }

  /// Kills the child with SIGKILL if it still runs; safe to call more than once.
  func kill() {
    signal(SIGKILL)
  }

  /// Whether the child is still running.
  var isRunning: Bool { process.isRunning }

  /// Waits for the child to exit and returns its status (128 + signal when a signal ended it).
  func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let status = process.exitStatus { return status }
      try await pause(until: deadline, after: timeout, what: "exit")
    }
  }

  /// Waits until both output pipes reached end of file.
  func waitForOutputEnd(timeout: Duration) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(stdoutDrain.hasEnded && stderrDrain.hasEnded) {
      try await pause(until: deadline, after: timeout, what: "the end of its output")
    }
  }

  private func pause(
    until deadline: ContinuousClock.Instant, after timeout: Duration, what: String
  ) async throws {
    if ContinuousClock.now >= deadline {
      throw timeoutError(timeout, what: what)
    }
    try await Task.sleep(for: .milliseconds(10))
  }

  private func timeoutError(_ timeout: Duration, what: String) -> ProcessTimeout {
    ProcessTimeout(
      arguments: arguments + ["(waiting for \(what))"], timeout: timeout, stdout: stdoutText,
      stderr: stderrText)
  }

  deinit {
    process.signal(SIGKILL)
  }
}

/// Reads a pipe to its end on a dedicated thread (never on Swift's cooperative pool).
private final class PipeDrain: @unchecked Sendable {
  private let handle: FileHandle
  private let lock = NSLock()
  private var buffer: [UInt8] = []
  private var ended = false

  init(_ handle: FileHandle) {
    self.handle = handle
  }

  func start() {
    Thread.detachNewThread { [self] in
      // read(2) directly: FileHandle.availableData traps on EINTR.
      let descriptor = handle.fileDescriptor
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        lock.withLock { buffer.append(contentsOf: chunk[0..<count]) }
      }
      lock.withLock { ended = true }
      try? handle.close()
    }
  }

  var bytes: [UInt8] { lock.withLock { buffer } }
  var hasEnded: Bool { lock.withLock { ended } }

  /// The complete lines so far, and whether the pipe has ended (a final unterminated line counts
  /// then).
  func completeLines() -> ([String], Bool) {
    lock.withLock {
      var parts = buffer.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      if !ended || parts.last?.isEmpty == true { parts.removeLast() }
      return (parts.map { String(decoding: $0, as: UTF8.self) }, ended)
    }
  }
}
