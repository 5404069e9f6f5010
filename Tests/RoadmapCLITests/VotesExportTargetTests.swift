import Foundation
import Testing

/// `votes export -o` to something that is not a regular file (a FIFO here; /dev/null in
/// practice) writes into it and never replaces it with a file.
@Suite struct VotesExportTargetTests {
  /// A data directory in `directory` holding one counter with one voter.
  static func store(in directory: TemporaryDirectory) async throws -> URL {
    let data = directory.url.appendingPathComponent("data")
    let good = try directory.write(
      "good.json",
      #"{"version":1,"counters":[{"record":{"id":0,"namespace":"app.example","key":"feature1","value":2,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":0,"updatedAt":0},"voters":["ann"]}]}"#
    )
    let imported = try await Roadmapctl.run(["votes", "import", good.path, "--data-dir", data.path])
    #expect(imported.exitCode == 0, "\(imported.stderrText)")
    return data
  }

  @Test func aFIFOIsWrittenIntoNotReplaced() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = try await Self.store(in: directory)

    let fifo = directory.url.appendingPathComponent("out.fifo").path
    let copy = directory.url.appendingPathComponent("copy.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = try ChildProcess.copying(fifo: fifo, to: copy)
    defer { reader.kill() }
    let export = try await Roadmapctl.run(["votes", "export", "--data-dir", data.path, "-o", fifo])
    #expect(export.exitCode == 0, "\(export.stderrText)")
    #expect(try await reader.waitForExit(timeout: .seconds(60)) == 0)
    var info = stat()
    #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    let text = try String(contentsOfFile: copy, encoding: .utf8)
    #expect(text.contains("\"key\" : \"feature1\""))
    #expect(text.hasSuffix("}\n"))
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!left.contains { $0.contains(".partial-") }, "\(left)")
  }

  @Test func aFailedWriteIsSaidInTheSystemsWordsAndReplacesNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = try await Self.store(in: directory)

    // A full disk: the writer's failure, not the store's, and no Foundation error dump.
    let full = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", data.path, "-o", "/dev/full"])
    #expect(full.exitCode == 1)
    #expect(full.stderrText == "Error: cannot write '/dev/full': No space left on device\n")

    let folder = directory.url.appendingPathComponent("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let intoFolder = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", data.path, "-o", folder.path])
    #expect(intoFolder.stderrText == "Error: cannot write '\(folder.path)': it is a directory\n")

    // A symbolic link: the file it names is replaced, the link stays.
    let real = try directory.write("real.json", "old")
    let link = directory.url.appendingPathComponent("link.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real.path)
    let linked = try await Roadmapctl.run(["votes", "export", "--data-dir", data.path, "-o", link])
    #expect(linked.exitCode == 0, "\(linked.stderrText)")
    #expect(linked.stderrText == "Exported 1 counter and 1 vote with voter ids to \(link).\n")
    #expect(try String(contentsOf: real, encoding: .utf8).contains("\"key\" : \"feature1\""))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == real.path)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!left.contains { $0.contains(".partial-") }, "\(left)")
  }
}
