import Foundation
import Testing

/// `votes export -o` to something that is not a regular file (a FIFO here; /dev/null in
/// practice) writes into it and never replaces it with a file.
@Suite struct VotesExportTargetTests {
  @Test func aFIFOIsWrittenIntoNotReplaced() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data")
    let good = try directory.write(
      "good.json",
      #"{"version":1,"counters":[{"record":{"id":0,"namespace":"app.example","key":"feature1","value":2,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":0,"updatedAt":0},"voters":["ann"]}]}"#
    )
    let imported = try await Roadmapctl.run(["votes", "import", good.path, "--data-dir", data.path])
    #expect(imported.exitCode == 0, "\(imported.stderrText)")

    let fifo = directory.url.appendingPathComponent("out.fifo").path
    let copy = directory.url.appendingPathComponent("copy.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    async let reader = Roadmapctl.runTool("/bin/sh", ["-c", "cat \"$0\" > \"$1\"", fifo, copy])
    let export = try await Roadmapctl.run(["votes", "export", "--data-dir", data.path, "-o", fifo])
    #expect(export.exitCode == 0, "\(export.stderrText)")
    #expect(try await reader == 0)
    var info = stat()
    #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    let text = try String(contentsOfFile: copy, encoding: .utf8)
    #expect(text.contains("\"key\" : \"feature1\""))
    #expect(text.hasSuffix("}\n"))
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!left.contains { $0.contains(".partial-") }, "\(left)")
  }
}
