import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--out`/`-o` of `convert`, `publish`, `reconcile` and `backup`: a file is replaced
/// atomically, but a FIFO or device is written into (it was replaced by a plain file, and the
/// reader got nothing), a symbolic link is followed (it was replaced by a file), and a
/// failure says what is wrong in words (it said "NSCocoaErrorDomain error 512").
@Suite struct OutputTargetTests {
  static let roadmap = #"[{"id":"1","title":"Dark mode","status":"Planned"}]"#

  static func convert(_ directory: TemporaryDirectory, out: String) async throws -> ProcessResult {
    try await Roadmapctl.run(
      [
        "convert", "roadmap.json", "--to", "votefirst-export", "--project", "demo-app", "--out",
        out,
      ],
      workingDirectory: directory.url)
  }

  @Test func aFIFOIsWrittenIntoNotReplaced() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    let fifo = directory.url.appendingPathComponent("out.fifo").path
    let copy = directory.url.appendingPathComponent("copy.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = try ChildProcess.copying(fifo: fifo, to: copy)
    defer { reader.kill() }
    let result = try await Self.convert(directory, out: "out.fifo")
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(try await reader.waitForExit(timeout: .seconds(60)) == 0)
    var info = stat()
    #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    let text = try String(contentsOfFile: copy, encoding: .utf8)
    #expect(text.contains(#""format" : "votefirst-export""#))
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!left.contains { $0.contains(".partial-") }, "\(left)")
  }

  /// A write killed half-way leaves `OUT.partial-PID`; the next write to OUT removes it (it
  /// stayed for good), but not the temporary file of a write still running.
  @Test func temporaryFilesOfKilledWritesAreRemovedByTheNext() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    // A pid no process has (above the kernel's pid_max), and this test process's own.
    let abandoned = try directory.write("out.json.partial-2147483646", "half")
    let running = try directory.write("out.json.partial-\(getpid())", "being written")
    let other = try directory.write("other.json.partial-2147483646", "another target's")
    let result = try await Self.convert(directory, out: "out.json")
    #expect(result.exitCode == 0, "\(result.stderrText)")
    let fileManager = FileManager.default
    #expect(!fileManager.fileExists(atPath: abandoned.path))
    #expect(fileManager.fileExists(atPath: running.path))
    #expect(fileManager.fileExists(atPath: other.path))
  }

  @Test func aSymbolicLinkIsFollowedAndAFileReplaced() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    let real = try directory.write("real.json", "old")
    let link = directory.url.appendingPathComponent("link.json").path
    #expect(symlink("real.json", link) == 0)
    let result = try await Self.convert(directory, out: "link.json")
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "real.json",
      "still a link")
    #expect(try String(contentsOf: real, encoding: .utf8).contains("votefirst-export"))

    let again = try await Self.convert(directory, out: "real.json")
    #expect(again.exitCode == 0)
    #expect(try String(contentsOf: real, encoding: .utf8).hasSuffix("}\n"))
  }

  /// A file replaced keeps its permissions (a private 0600 file became 0644).
  @Test func aReplacedFileKeepsItsPermissions() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    let existing = try directory.write("private.json", "old")
    #expect(chmod(existing.path, 0o600) == 0)
    let result = try await Self.convert(directory, out: "private.json")
    #expect(result.exitCode == 0, "\(result.stderrText)")
    var info = stat()
    #expect(stat(existing.path, &info) == 0)
    #expect(info.st_mode & 0o7777 == 0o600)
    #expect(try String(contentsOf: existing, encoding: .utf8).contains("votefirst-export"))
  }

  @Test(arguments: [
    ("adir", "Error: cannot write 'adir': it is a directory\n"),
    ("nodir/x.json", "Error: cannot write 'nodir/x.json': there is no directory 'nodir'\n"),
    ("/dev/full", "Error: cannot write '/dev/full': No space left on device\n"),
  ])
  func aTargetThatCannotBeWrittenIsSaidInWords(out: String, message: String) async throws {
    if out.hasPrefix("/dev/"), !FileManager.default.fileExists(atPath: out) { return }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("adir"), withIntermediateDirectories: false)
    let result = try await Self.convert(directory, out: out)
    #expect(result.exitCode == 1)
    #expect(result.stderrText == message)
    var info = stat()
    if out.hasPrefix("/dev/") {
      #expect(stat(out, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "still a device")
    }
  }

  @Test func backupWritesIntoAFIFO() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let votes = try directory.write(
      "votes.json",
      #"{"version":1,"counters":[{"record":{"id":0,"namespace":"app.example","key":"feature1","value":2,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":0,"updatedAt":0},"voters":["ann"]}]}"#
    )
    let imported = try await Roadmapctl.run(
      ["votes", "import", votes.path, "--data-dir", "data"], workingDirectory: directory.url)
    #expect(imported.exitCode == 0, "\(imported.stderrText)")
    let fifo = directory.url.appendingPathComponent("backup.fifo").path
    let copy = directory.url.appendingPathComponent("copy.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = try ChildProcess.copying(fifo: fifo, to: copy)
    defer { reader.kill() }
    let result = try await Roadmapctl.run(
      ["backup", "--data-dir", "data", "-o", "backup.fifo"], workingDirectory: directory.url)
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(try await reader.waitForExit(timeout: .seconds(60)) == 0)
    var info = stat()
    #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    #expect(try String(contentsOfFile: copy, encoding: .utf8).contains("feature1"))
  }
}
