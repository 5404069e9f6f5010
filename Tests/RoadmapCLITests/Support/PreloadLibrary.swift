import Foundation
import Testing

/// A small C library built in a test and preloaded (`LD_PRELOAD`) into the real `roadmapctl`,
/// to make the system do what a test cannot arrange otherwise (a power cut, a file cut short).
enum PreloadLibrary {
  /// Compiles `source` into `directory/NAME.so` with the toolchain's C compiler (clang ships
  /// with the Swift toolchain; `cc` and `gcc` are tried after it); returns the library's path.
  static func compile(_ source: String, named name: String, in directory: URL) async throws
    -> URL
  {
    let file = directory.appendingPathComponent("\(name).c")
    let library = directory.appendingPathComponent("\(name).so")
    try source.write(to: file, atomically: true, encoding: .utf8)
    let compiler = try #require(
      ["clang", "cc", "gcc"].lazy.compactMap(executable(named:)).first,
      "a C compiler (clang ships with the Swift toolchain) to build \(name).so")
    let child = try ChildProcess.start(
      compiler, ["-shared", "-fPIC", "-O1", "-o", library.path, file.path, "-ldl", "-lpthread"])
    defer { child.kill() }
    let status = try await child.waitForExit(timeout: .seconds(120))
    try #require(status == 0, "building \(name).so: \(child.stderrText)")
    return library
  }

  private static func executable(named name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
