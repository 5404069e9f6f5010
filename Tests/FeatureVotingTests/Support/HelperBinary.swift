import Foundation
import TestProcess

/// Finds an executable built with the tests (`file-voter-stress`, `roadmapctl`): next to the
/// test bundle, else in .build/debug.
enum HelperBinary {
  static func url(_ name: String) throws -> URL {
    var directories: [URL] = []
    #if os(Linux)
      directories.append(
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
          .deletingLastPathComponent())
    #endif
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    directories.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in directories {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw NotFound(name: name, searched: directories.map(\.path))
  }

  /// A helper that was killed because it ran past its time limit.
  struct TimedOut: Error, CustomStringConvertible {
    var description: String
  }

  struct NotFound: Error, CustomStringConvertible {
    var name: String
    var searched: [String]
    var description: String {
      "\(name) not found in \(searched.joined(separator: ", ")); run swift build --build-tests"
    }
  }

  /// Runs `executable arguments` to completion on a plain thread, draining its output to files
  /// (so a chatty child cannot fill a pipe), and returns its status, stdout and stderr. A child
  /// still running after `timeout` is killed, and the call throws.
  static func run(
    _ executable: URL, _ arguments: [String], timeout: Duration = .seconds(180)
  ) async throws -> (Int32, String, String) {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "helper-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let out = scratch.appendingPathComponent("out")
    let err = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    let outHandle = try FileHandle(forWritingTo: out)
    let errHandle = try FileHandle(forWritingTo: err)
    let process = try Subprocess(
      executable.path, arguments, stdin: .null, stdout: .handle(outHandle),
      stderr: .handle(errHandle))
    try? outHandle.close()
    try? errHandle.close()
    let killer = Task { () -> Bool in
      do { try await Task.sleep(for: timeout) } catch { return false }
      process.signal(SIGKILL)
      return true
    }
    let status = await process.exit()
    killer.cancel()
    if await killer.value {
      throw TimedOut(
        description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did "
          + "not finish within \(timeout); stderr: "
          + ((try? String(contentsOf: err, encoding: .utf8)) ?? ""))
    }
    return (
      status, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
      (try? String(contentsOf: err, encoding: .utf8)) ?? ""
    )
  }
}
