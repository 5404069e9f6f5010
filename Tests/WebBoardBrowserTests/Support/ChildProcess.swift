// A child process for the browser tests (chromedriver, the real `roadmapctl serve`): its output
// drained as it comes, lines waited for, and ended with SIGTERM (then SIGKILL).
import Foundation

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
  let process = Process()
  let name: String
  private let lock = NSLock()
  private var output = ""

  /// Starts `executable` with `arguments`; stdout and stderr are both collected.
  init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
    name = executable.lastPathComponent
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    process.standardInput = FileHandle.nullDevice
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.lock()
      self.output += String(decoding: data, as: UTF8.self)
      self.lock.unlock()
    }
    try process.run()
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
      kill(process.processIdentifier, signal)
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
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["ROADMAPCTL_BINARY"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    var directories: [URL] = []
    #if os(Linux)
      directories.append(
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
          .deletingLastPathComponent())
    #endif
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    directories.append(root.appendingPathComponent(".build/debug"))
    for directory in directories {
      let candidate = directory.appendingPathComponent("roadmapctl")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw ChildProcessError(
      description: "roadmapctl not found in \(directories.map(\.path)); swift build --build-tests")
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
