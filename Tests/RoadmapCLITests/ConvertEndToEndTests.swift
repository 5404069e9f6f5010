import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

/// `roadmapctl convert`, run as the real binary.
@Suite struct ConvertEndToEndTests {
  /// A roadmap holding the hard cases of a move.
  static let roadmap = """
    [
      {"id": "1", "title": "Widgets", "status": "planned", "votes": 12, "isFinished": false,
       "localizedTitle": [{"language": "de", "value": "Widgets!", "note": "ask Ana first"}],
       "localizedStatus": [{"language": "de", "value": "Geplant"}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": true},
      {"id": "3", "title": "Dark mode", "status": "Available ", "isFinished": false},
      {"id": "4", "title": "Maps", "status": "?", "url": "https://example.com/maps", "price": 1.50},
      {"id": "5", "title": "", "votes": -3},
      {"id": "6", "isFinished": true}
    ]
    """

  static func workspace() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("roadmap.json", roadmap)
    try directory.write("broken.json", #"[{"id": "1",}]"#)
    return directory
  }

  func convert(_ arguments: [String], in directory: TemporaryDirectory, stdin: String? = nil)
    async throws -> ProcessResult
  {
    try await Roadmapctl.run(
      ["convert"] + arguments, stdin: stdin.map { Array($0.utf8) },
      workingDirectory: directory.url)
  }

  /// `roadmap.json` converted to `export.json` (project demo-app), its exit status checked.
  func exported(in directory: TemporaryDirectory) async throws -> ProcessResult {
    let there = try await convert(
      [
        "roadmap.json", "--to", "votefirst-export", "--out", "export.json", "--project", "demo-app",
      ],
      in: directory)
    #expect(there.exitCode == 0, "\(there.stderrText)")
    return there
  }

  @Test func roadmapToExportAndBackGivesEveryFeatureBack() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let there = try await exported(in: directory)
    #expect(there.stdoutText.isEmpty)
    #expect(
      there.stderrText.contains(
        "altered: feature 5, votes: -3 cannot be a count (0 to 2^53 − 1): VoteFirst counts 0"))
    #expect(
      there.stderrText.contains(
        "Converted 6 of 6 features into 4 stages; 1 altered (above)."))
    let exportData = try Data(contentsOf: directory.url.appendingPathComponent("export.json"))
    let export = try VoteFirstCoding.decode(ProjectExport.self, from: exportData)
    #expect(export.project == "demo-app")
    #expect(export.stages.map(\.name) == ["planned", "Finished", "Available", "?"])
    #expect(export.features.map(\.importedVotes) == [12, 0, 0, 0, 0, 0])

    let back = try await convert(["export.json", "--to", "roadmap"], in: directory)
    #expect(back.exitCode == 0, "\(back.stderrText)")
    #expect(back.stderrText == "Converted 6 of 6 features of project demo-app; nothing lost.\n")
    let original = try RoadmapDocument.read(Array(Self.roadmap.utf8), mode: .compatible)
    let returned = try RoadmapDocument.read(back.stdout, mode: .compatible)
    #expect(returned.features == original.features)
  }

  /// `--board` naming a board the export does not have stops it, and an `--out` file that
  /// was there stays as it was (it was replaced with `[]`).
  @Test func aBoardTheExportDoesNotHaveIsRefused() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    _ = try await exported(in: directory)
    try directory.write("published.json", Self.roadmap)
    let refused = try await convert(
      ["export.json", "--to", "roadmap", "--board", "nosuch", "--out", "published.json"],
      in: directory)
    #expect(refused.exitCode == 1)
    #expect(refused.stderrText == "Error: the export has no board 'nosuch' (its boards: roadmap)\n")
    let kept = try String(
      contentsOf: directory.url.appendingPathComponent("published.json"), encoding: .utf8)
    #expect(kept == Self.roadmap)
  }

  /// An option of the other direction is a usage error, as --status-map with --to roadmap
  /// was: `--project` with `--to roadmap` and `--board` with `--to votefirst-export` were
  /// passed over without a word.
  @Test func anOptionOfTheOtherDirectionIsAUsageError() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let cases: [([String], String)] = [
      (
        ["roadmap.json", "--to", "roadmap", "--project", "demo-app"],
        "Error: --project applies to --to votefirst-export"
      ),
      (
        ["roadmap.json", "--to", "votefirst-export", "--board", "ideas"],
        "Error: --board applies to --to roadmap"
      ),
    ]
    for (arguments, message) in cases {
      let result = try await convert(arguments, in: directory)
      #expect(result.exitCode == 64, "\(arguments): \(result.stderrText)")
      #expect(result.stderrText.hasPrefix(message), "\(result.stderrText)")
    }
  }

  @Test func standardInputAndAStatusMap() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    try directory.write(
      "stages.json",
      #"{"stages":[{"name":"Shipped","statuses":["Available "],"isFinished":true},{"name":"Planned","statuses":["planned"]}]}"#
    )
    let result = try await convert(
      ["-", "--to", "votefirst-export", "--status-map", "stages.json"], in: directory,
      stdin: Self.roadmap)
    #expect(result.exitCode == 0, "\(result.stderrText)")
    let export = try VoteFirstCoding.decode(ProjectExport.self, from: Data(result.stdout))
    #expect(export.project == "roadmap")
    #expect(export.stages.map(\.name) == ["Shipped", "Planned", "?", "Finished"])
    #expect(export.stages.map(\.isFinished) == [true, false, false, true])
  }

  @Test func aBrokenRoadmapConvertsNothing() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let result = try await convert(
      ["broken.json", "--to", "votefirst-export", "--out", "export.json"], in: directory)
    #expect(result.exitCode == 1)
    #expect(result.stderrText.contains("broken.json:1:12: error:"))
    #expect(result.stderrText.contains("[trailing-comma]"))
    #expect(
      result.stderrText.contains("Error: 'broken.json' has errors (above); nothing was written."))
    #expect(
      !FileManager.default.fileExists(
        atPath: directory.url.appendingPathComponent("export.json").path))
  }

  @Test func somethingThatIsNotAnExportIsRefused() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let array = try await convert(["roadmap.json", "--to", "roadmap"], in: directory)
    #expect(array.exitCode == 1)
    #expect(array.stderrText.contains("Error: cannot read the VoteFirst export 'roadmap.json'"))
    try directory.write("other.json", #"{"format":"something-else","version":1}"#)
    let other = try await convert(["other.json", "--to", "roadmap"], in: directory)
    #expect(other.exitCode == 1)
    #expect(
      other.stderrText.contains(
        "cannot read the VoteFirst export 'other.json': at format: not a VoteFirst export: something-else"
      ))
    let missing = try await convert(["nothing.json", "--to", "roadmap"], in: directory)
    #expect(missing.exitCode == 1)
    #expect(missing.stderrText.contains("cannot read 'nothing.json': no such file"))
  }

  @Test func badOptionsAreUsageErrors() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let noTarget = try await convert(["roadmap.json"], in: directory)
    #expect(noTarget.exitCode == 64)
    #expect(noTarget.stderrText.contains("--to"))
    let wrongTarget = try await convert(["roadmap.json", "--to", "csv"], in: directory)
    #expect(wrongTarget.exitCode == 64)
    let mapBack = try await convert(
      ["roadmap.json", "--to", "roadmap", "--status-map", "x.json"], in: directory)
    #expect(mapBack.exitCode == 64)
    #expect(mapBack.stderrText.contains("--status-map applies to --to votefirst-export."))
    let project = try await convert(
      ["roadmap.json", "--to", "votefirst-export", "--project", "a b"], in: directory)
    #expect(project.exitCode == 64)
    #expect(project.stderrText.contains("is not a namespace"))
  }

  @Test func aStatusMapThatCannotBeUsedStopsIt() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    try directory.write("stages.json", #"{"stages":[{"name":"A","color":"blue"}]}"#)
    let result = try await convert(
      ["roadmap.json", "--to", "votefirst-export", "--status-map", "stages.json"], in: directory)
    #expect(result.exitCode == 1)
    #expect(
      result.stderrText.contains(
        "Error: cannot use the status map 'stages.json': stages[0].color 'blue' is not a colour"))
  }
}
