import Foundation
import Testing

/// `votes export` / `votes import` through the real binary.
@Suite struct ServeVotesTests {
  @Test func countsAndVotersRoundTripThroughExportAndImport() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let source = directory.url.appendingPathComponent("source")
    let server = try await ServeProcess.start(dataDirectory: source, ["--write-limit", "0"])
    defer { server.process.kill() }
    for voter in ["ann", "ben", "cy"] {
      _ = try await server.get("/hit/app.example/feature1", headers: ["X-Voter-ID": voter])
    }
    _ = try await server.get("/hit/app.example/feature2")
    _ = try await server.get("/create?namespace=other.app&key=resettable&value=7&enable_reset=1")
    #expect(try await server.stop() == 0)

    let export = try await Roadmapctl.run(["votes", "export", "--data-dir", source.path])
    #expect(export.exitCode == 0, "\(export.stderrText)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(export.stdout)) as? [String: Any])
    let counters = try #require(document["counters"] as? [[String: Any]])
    #expect(counters.count == 3)
    // Voter ids leave the store as keyed hashes (issue 7, item 5), never in clear.
    #expect(counters.contains { ($0["voters"] as? [String])?.count == 3 })
    #expect(!export.stdoutText.contains("ann"))

    let file = directory.url.appendingPathComponent("backup.json")
    let toFile = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", source.path, "--output", file.path])
    #expect(toFile.exitCode == 0)
    #expect(toFile.stderrText.contains("Exported 3 counters and 3 votes with voter ids"))
    #expect(try Data(contentsOf: file) == Data(export.stdout))

    // The hashes need the source's voter key: moved first, as docs/storage.md says.
    let target = directory.url.appendingPathComponent("target")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: source.appendingPathComponent("votes.sqlite3-voter-key"),
      to: target.appendingPathComponent("votes.sqlite3-voter-key"))
    let imported = try await Roadmapctl.run(
      ["votes", "import", file.path, "--data-dir", target.path])
    #expect(imported.exitCode == 0, "\(imported.stderrText)")
    #expect(imported.stderrText == "Imported 3 counters.\n")
    let again = try await Roadmapctl.run(
      ["votes", "import", "-", "--data-dir", target.path],
      stdin: export.stdout)
    #expect(again.stderrText.contains("skipped 3 that already exist"))
    let replaced = try await Roadmapctl.run(
      ["votes", "import", file.path, "--replace", "--data-dir", target.path])
    #expect(replaced.stderrText == "Imported 3 counters.\n")
    let reexport = try await Roadmapctl.run(["votes", "export", "--data-dir", target.path])
    #expect(reexport.stdout == export.stdout)

    // The imported store serves the counts, and voters keep their single vote.
    let restored = try await ServeProcess.start(dataDirectory: target)
    defer { restored.process.kill() }
    #expect(try await restored.get("/get/app.example/feature1").body == #"{"value":3}"#)
    let repeatVote = try await restored.get(
      "/hit/app.example/feature1", headers: ["X-Voter-ID": "ben"])
    #expect(repeatVote.body == #"{"value":3}"#)
    #expect(try await restored.get("/get/other.app/resettable").body == #"{"value":7}"#)
    #expect(try await restored.stop() == 0)
  }

  @Test func exportOfAMissingStoreFails() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", directory.path + "/nothing"])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.hasPrefix("Error: no vote store in "))
  }

  @Test func importRefusesWhatIsNotAnExport() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.write("bad.json", #"[{"id":"1"}]"#)
    let result = try await Roadmapctl.run(
      ["votes", "import", file.path, "--data-dir", directory.path + "/data"])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.contains("the top level: expected an object"))
    let invalid = try directory.write(
      "invalid.json",
      #"{"version":2,"counters":[]}"#)
    let refused = try await Roadmapctl.run(
      ["votes", "import", invalid.path, "--data-dir", directory.path + "/data"])
    #expect(refused.exitCode == 1)
    #expect(refused.stderrText.contains("nothing was imported"))
    let missing = try await Roadmapctl.run(
      ["votes", "import", directory.path + "/none.json", "--data-dir", directory.path + "/data"])
    #expect(missing.exitCode == 1)
    #expect(missing.stderrText.hasPrefix("Error: cannot read "))
  }
}
