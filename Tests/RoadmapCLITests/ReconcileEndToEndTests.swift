import Foundation
import RoadmapFormat
import Testing

/// `roadmapctl reconcile` against export documents (offline) and a counting API (a real
/// `roadmapctl serve`).
@Suite struct ReconcileEndToEndTests {
  static let roadmap = """
    [
      {"id": "1", "title": "Widgets", "status": "planned", "votes": 3,
       "localizedTitle": [{"language": "de", "value": "Widgets!"}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": true},
      {"id": "3", "title": "Dark mode", "url": "https://example.com/dark"}
    ]
    """

  static let changed = """
    [
      {"id": "1", "title": "Widgets", "status": "planned", "votes": 5,
       "localizedTitle": [{"language": "de", "value": "Widgets"}, {"language": "fr", "value": "Widgets"}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": false},
      {"id": "4", "title": "New", "url": "https://example.com/new"}
    ]
    """

  /// A directory with roadmap.json, changed.json and export.json (the roadmap converted).
  static func workspace() async throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("roadmap.json", roadmap)
    try directory.write("changed.json", changed)
    let converted = try await Roadmapctl.run(
      [
        "convert", "roadmap.json", "--to", "votefirst-export", "--out", "export.json", "--project",
        "demo-app",
      ],
      workingDirectory: directory.url)
    #expect(converted.exitCode == 0, "\(converted.stderrText)")
    return directory
  }

  func reconcile(_ arguments: [String], in directory: TemporaryDirectory) async throws
    -> ProcessResult
  {
    try await Roadmapctl.run(
      ["reconcile"] + arguments, workingDirectory: directory.url, timeout: .seconds(120))
  }

  @Test func inSyncIsExitZero() async throws {
    let directory = try await Self.workspace()
    defer { directory.remove() }
    let result = try await reconcile(["roadmap.json", "--export", "export.json"], in: directory)
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(
      result.stdoutText == "roadmap.json and export.json (project demo-app) are in sync.\n")
  }

  @Test func driftIsExitOneWithEveryDifference() async throws {
    let directory = try await Self.workspace()
    defer { directory.remove() }
    let result = try await reconcile(["changed.json", "--export", "export.json"], in: directory)
    #expect(result.exitCode == 1)
    #expect(
      result.stdoutText == """
        only in the roadmap: feature 4
        only on VoteFirst: feature 3
        feature 1: localizedTitle[de]: roadmap "Widgets", VoteFirst "Widgets!"
        feature 1: localizedTitle[fr]: roadmap "Widgets", VoteFirst absent
        feature 2: isFinished: roadmap false, VoteFirst true
        feature 1: votes: roadmap 5, VoteFirst 3
        changed.json and export.json (project demo-app) differ: 4 features drifted.

        """)
    let json = try await reconcile(
      ["changed.json", "--export", "export.json", "--format", "json"], in: directory)
    #expect(json.exitCode == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
    #expect(object["inSync"] as? Bool == false)
    #expect(object["onlyInRoadmap"] as? [String] == ["4"])
    let drift = try #require(object["voteDrift"] as? [[String: Any]])
    #expect(drift.first?["voteFirst"] as? Int == 3)
    #expect(drift.first?["counted"] is NSNull)
  }

  @Test func applyToRoadmapWritesTheBoardsRoadmap() async throws {
    let directory = try await Self.workspace()
    defer { directory.remove() }
    let result = try await reconcile(
      ["changed.json", "--export", "export.json", "--apply", "to-roadmap", "--out", "new.json"],
      in: directory)
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(result.stderrText.contains("Wrote 3 features to new.json."))
    let written = try RoadmapDocument.read(
      [UInt8](Data(contentsOf: directory.url.appendingPathComponent("new.json"))),
      mode: .compatible)
    var expected = try RoadmapDocument.read(Array(Self.roadmap.utf8), mode: .compatible).features
    // Published with the board's counts filled in.
    expected[1].votes = 0
    expected[2].votes = 0
    #expect(written.features == expected)
    let again = try await reconcile(["new.json", "--export", "export.json"], in: directory)
    #expect(again.exitCode == 0, "\(again.stdoutText)")
  }

  @Test func countsFromACountingAPI() async throws {
    let directory = try await Self.workspace()
    defer { directory.remove() }
    let counter = try await SyncSupport.serve(in: directory, name: "counter")
    defer { counter.process.kill() }
    try await SyncSupport.hit(counter, "old-app", "feature1", times: 3)
    try await SyncSupport.hit(counter, "old-app", "feature3", times: 1)
    let result = try await reconcile(
      [
        "roadmap.json", "--export", "export.json", "--counts", SyncSupport.url(counter),
        "--namespace", "old-app",
      ], in: directory)
    #expect(result.exitCode == 1)
    #expect(
      result.stdoutText.contains("feature 3: votes: VoteFirst 0 (imported 0), counting API 1\n"))
    #expect(!result.stdoutText.contains("feature 1:"))
    let port = try await SyncSupport.closedPort(in: directory)
    let unreachable = try await reconcile(
      [
        "roadmap.json", "--export", "export.json", "--counts", "http://127.0.0.1:\(port)",
        "--namespace", "old-app",
      ], in: directory)
    #expect(unreachable.exitCode == 1)
    #expect(unreachable.stderrText.contains("cannot read the count of feature 1: offline"))
    #expect(unreachable.stderrText.contains("nothing was compared."))
  }

  @Test(
    "usage errors",
    arguments: [
      (["roadmap.json"], "Give either --server (with --project) or --export."),
      (
        [
          "roadmap.json", "--export", "export.json", "--server", "http://127.0.0.1:1", "--project",
          "abc",
        ],
        "Give either --server"
      ),
      (["roadmap.json", "--server", "http://127.0.0.1:1"], "--server needs --project."),
      (
        ["roadmap.json", "--export", "export.json", "--apply", "to-votefirst"],
        "--apply to-votefirst writes to a server"
      ),
      (["-", "--export", "export.json", "--apply", "to-roadmap"], "needs --out"),
      (
        [
          "roadmap.json", "--server", "http://127.0.0.1:1", "--project", "abc", "--apply",
          "to-votefirst",
        ],
        "Writing to http://127.0.0.1:1 needs its admin token: --key or ROADMAPCTL_ADMIN_TOKEN."
      ),
      (["roadmap.json", "--export", "export.json", "--out", "x.json"], "--out goes with"),
      (
        ["roadmap.json", "--export", "export.json", "--counts", "http://127.0.0.1:1"],
        "--counts needs --namespace."
      ),
    ])
  func usage(_ arguments: [String], _ message: String) async throws {
    let directory = try await Self.workspace()
    defer { directory.remove() }
    let result = try await reconcile(arguments, in: directory)
    #expect(result.exitCode == 64)
    #expect(result.stderrText.contains(message), "\(result.stderrText)")
    #expect(result.stdoutText.isEmpty, "nothing is compared before a usage error")
  }

  /// `--format json --apply to-votefirst`: standard output is one JSON document (the
  /// migration's plan and outcome lines followed it there).
  @Test func jsonOutputStaysOneDocumentWhenApplying() async throws {
    let directory = try await Self.workspace()
    defer { directory.remove() }
    let server = try await SyncSupport.serve(in: directory, name: "board")
    let migrated = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(server), "--project", "demo-app",
        "--key", SyncSupport.token,
      ], workingDirectory: directory.url)
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    let result = try await reconcile(
      [
        "changed.json", "--server", SyncSupport.url(server), "--project", "demo-app", "--key",
        SyncSupport.token, "--apply", "to-votefirst", "--format", "json",
      ], in: directory)
    _ = try await server.stop()
    #expect(result.exitCode == 0, "\(result.stderrText)")
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout))
    #expect(document is [String: Any], "\(result.stdoutText)")
    #expect(result.stderrText.contains("Migrated"), "\(result.stderrText)")
  }
}
