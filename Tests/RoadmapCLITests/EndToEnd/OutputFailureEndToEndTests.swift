import Foundation
import Testing

/// Output that cannot be written is a failure: `roadmapctl backup > backup.json` on a full
/// disk printed nothing and exited 0 over an empty file. Standard output here is `/dev/full`
/// (every write fails with ENOSPC), through a shell that redirects it for the real binary.
@Suite struct OutputFailureEndToEndTests {
  static let roadmap = #"[{"id":"1","title":"Dark mode","status":"Planned"}]"#
  static let votes =
    #"{"version":1,"counters":[{"record":{"id":0,"namespace":"app.example","key":"feature1","value":2,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":0,"updatedAt":0},"voters":["ann"]}]}"#

  @Test(arguments: [
    ["schema"], ["validate", "roadmap.json", "--format", "json"], ["show", "roadmap.json"],
    ["convert", "roadmap.json", "--to", "votefirst-export", "--project", "demo-app"],
    ["votes", "export", "--data-dir", "data"], ["backup", "--data-dir", "data"],
  ])
  func aCommandWhoseOutputCannotBeWrittenFails(arguments: [String]) async throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else { return }  // Linux only
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    if arguments.contains("--data-dir") {
      let votes = try directory.write("votes.json", Self.votes)
      let imported = try await Roadmapctl.run(
        ["votes", "import", votes.path, "--data-dir", "data"], workingDirectory: directory.url)
      #expect(imported.exitCode == 0, "\(imported.stderrText)")
    }
    let binary = try Roadmapctl.binaryURL().path
    let quoted = ([binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
    let child = try ChildProcess.start(
      "/bin/sh", ["-c", "exec \(quoted) > /dev/full"], workingDirectory: directory.url)
    let status = try await child.waitForExit(timeout: .seconds(60))
    try await child.waitForOutputEnd(timeout: .seconds(10))
    #expect(status == 1, "\(child.stderrText)")
    #expect(
      child.stderrText.hasSuffix(
        "Error: cannot write standard output: No space left on device\n"), "\(child.stderrText)")
    // Said once, and nothing claims the document was written (convert said "Converted 1 of
    // 1 feature…; nothing lost." first).
    #expect(
      child.stderrText.components(separatedBy: "cannot write standard output").count == 2,
      "\(child.stderrText)")
    #expect(!child.stderrText.contains("Converted"), "\(child.stderrText)")
  }

  /// The same commands with a writable standard output still succeed (the check adds no
  /// failure of its own).
  @Test func aWritableOutputStillSucceeds() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("roadmap.json", Self.roadmap)
    let result = try await Roadmapctl.run(["schema"], workingDirectory: directory.url)
    #expect(result.exitCode == 0)
    #expect(result.stderrText.isEmpty)
    #expect(result.stdoutText.hasPrefix("{"))
  }
}
