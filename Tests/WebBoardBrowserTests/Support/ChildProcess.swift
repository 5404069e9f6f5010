// A child process for the browser tests (chromedriver, the real `roadmapctl serve`): its output
// drained as it comes, lines waited for, and ended with SIGTERM (then SIGKILL).
import Foundation
import TestProcess

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure starting or waiting for a child.
struct ChildProcessError: Error, CustomStringConvertible {
  var description: String
}

/// A running child process and everything it has printed.
final class ChildProcess: @unchecked Sendable {
  private(set) var process: Subprocess!
  let name: String
  private let lock = NSLock()
  private var output = ""

  /// Starts `executable` with `arguments`; stdout and stderr are both collected.
  init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
    name = executable.lastPathComponent
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let pipe = Pipe()
    process = try Subprocess(
      executable.path, arguments, environment: env, stdin: .null,
      stdout: .handle(pipe.fileHandleForWriting),
      stderr: .pipe(pipe))
    // Read on a thread of its own until end of file (never on Swift's cooperative pool).
    let reader = pipe.fileHandleForReading
    Thread.detachNewThread { [weak self] in
      let descriptor = reader.fileDescriptor
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        guard let self else { break }
        self.lock.lock()
        self.output += String(decoding: chunk[0..<count], as: UTF8.self)
        self.lock.unlock()
      }
      try? reader.close()
    }
  }

  /// Everything printed so far.
  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return output
  }

  /// The first line containing `marker`, once printed; fails when the process ends first or
  /// nothing comes within `attempts` polls of 50 ms.
  func waitForLine(containing marker: String, attempts: Int = 1200) async throws -> String {
    for _ in 0..<attempts {
      if let line = text.split(separator: "\n").first(where: { $0.contains(marker) }) {
        return String(line)
      }
      if !process.isRunning {
        throw ChildProcessError(description: "\(name) ended before printing \(marker): \(text)")
      }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    throw ChildProcessError(description: "\(name) never printed \(marker): \(text)")
  }

  /// Ends the child: SIGTERM, then SIGKILL if it is still there after a while. Waits with
  /// `Task.sleep`, never blocking a thread of the cooperative pool.
  func stop() async {
    for signal in [SIGTERM, SIGKILL] {
      guard process.isRunning else { return }
      process.signal(signal)
      for _ in 0..<200 where process.isRunning {
        try? await Task.sleep(nanoseconds: 25_000_000)
      }
    }
  }
}

/// Finding the programs the tests run.
enum Programs {
  /// The built `roadmapctl`: $ROADMAPCTL_BINARY, else next to the test bundle, else .build.
  static func roadmapctl() throws -> URL {
    try BuiltProduct.url(named: "roadmapctl", override: "ROADMAPCTL_BINARY")
  }

  /// A program on PATH (or at one of `extra`), or a failure saying how to install it.
  static func find(_ name: String, extra: [String] = [], install: String) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + extra
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
      return URL(fileURLWithPath: candidate)
    }
    throw ChildProcessError(
      description: "\(name) is not installed: the browser tests need it (\(install)); "
        + ".ci/run installs it")
  }
}
