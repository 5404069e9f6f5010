import Foundation
import Testing

/// `migrate`, `reconcile` and `publish` over a project's life on a real `roadmapctl serve`:
/// the board changed by its owner between runs, the roadmap taken back from it and migrated
/// again, and nothing duplicated or moved that did not change.
@Suite struct SyncLifeEndToEndTests {
  func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    try await Roadmapctl.run(arguments, workingDirectory: directory.url, timeout: .seconds(120))
  }

  /// An admin call of the board API, on a connection of its own.
  func admin(_ server: ServeProcess, _ method: String, _ path: String, _ body: String = "")
    async throws -> WireAnswer
  {
    let port = server.port
    return try await WireClient.onThread {
      try WireConnection(port: port).exchange(
        method, "/api/v1/demo-app" + path,
        fields: [
          ("Authorization", "Bearer \(SyncSupport.token)"), ("Content-Type", "application/json"),
        ], body: Array(body.utf8))
    }
  }

  /// The project's features as the export has them: ref (nil: none), votes.
  func features(_ server: ServeProcess) async throws -> [(ref: String?, votes: Int)] {
    let export = try await SyncSupport.export(server, "demo-app")
    let features = try #require(export["features"] as? [[String: Any]])
    return features.map { ($0["ref"] as? String, $0["votes"] as? Int ?? -1) }
  }

  /// Bug: `publish` (and `reconcile --apply to-roadmap`) names a feature without a ref
  /// `vf-ID`; migrating that roadmap created a second feature with the ref `vf-ID`, so the
  /// board showed it twice and `publish` left the first one out from then on.
  @Test func aRefLessFeatureTakenBackAndMigratedIsNotDuplicated() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id": "1", "title": "One", "status": "Planned"}]"#)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let server = SyncSupport.url(board)
    let migrate = [
      "migrate", "roadmap.json", "--server", server, "--project", "demo-app", "--key",
      SyncSupport.token,
    ]
    let first = try await run(migrate, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    // The owner adds a feature on the board and takes its ref away; a voter votes for it.
    let created = try await admin(board, "PUT", "/features/ref/tmp", #"{"title":"Widgets"}"#)
    #expect(created.status == 201, "\(created.body)")
    let unref = try await admin(board, "PUT", "/features/2", #"{"title":"Widgets","ref":null}"#)
    #expect(unref.status == 200, "\(unref.body)")
    let vote = try await board.get(
      "/api/v1/demo-app/features/2/vote", method: "POST", headers: ["X-Voter-ID": "ann"])
    #expect(vote.status == 200, "\(vote.body)")

    let back = try await run(
      [
        "reconcile", "roadmap.json", "--server", server, "--project", "demo-app", "--apply",
        "to-roadmap",
      ], in: directory)
    #expect(back.exitCode == 0, "\(back.stderrText)")
    #expect(
      try String(contentsOf: directory.url.appendingPathComponent("roadmap.json"), encoding: .utf8)
        .contains(#""id": "vf-2""#))

    let again = try await run(migrate, in: directory)
    #expect(again.exitCode == 0, "\(again.stdoutText)\(again.stderrText)")
    #expect(again.stdoutText.contains("update feature vf-2: ref"), "\(again.stdoutText)")
    // Given its ref before the batch, which then changed nothing of it: it was counted
    // unchanged ("0 updated, 2 unchanged" after "1 to change").
    #expect(
      again.stdoutText.contains(": 0 created, 1 updated, 1 unchanged;"), "\(again.stdoutText)")
    let stored = try await features(board)
    #expect(stored.map(\.ref) == ["1", "vf-2"])
    #expect(stored.map(\.votes) == [0, 1])

    let published = try await run(
      ["publish", "--server", server, "--project", "demo-app"], in: directory)
    #expect(published.exitCode == 0)
    #expect(!published.stderrText.contains("not carried"), "\(published.stderrText)")
    let reconciled = try await run(
      ["reconcile", "roadmap.json", "--server", server, "--project", "demo-app"], in: directory)
    #expect(reconciled.exitCode == 0, "\(reconciled.stdoutText)\(reconciled.stderrText)")
    let rerun = try await run(migrate, in: directory)
    #expect(rerun.stdoutText.contains("0 features to create, 0 to change, 2 unchanged"))
  }

  /// Bug: `reconcile --apply to-votefirst` has no `--status-map`; on a board migrated with one
  /// it made a stage of every raw status and moved every feature there, though the two sides
  /// were in sync.
  @Test func applyingAnInSyncRoadmapKeepsTheStatusMapsStages() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "roadmap.json",
      """
      [{"id": "1", "title": "One", "status": "planned"},
       {"id": "2", "title": "Two", "status": "done", "isFinished": true}]
      """)
    try directory.write(
      "map.json",
      #"{"stages": [{"name": "Planned", "statuses": ["planned"]}, "#
        + #"{"name": "Shipped", "statuses": ["done"], "isFinished": true}]}"#)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let server = SyncSupport.url(board)
    let first = try await run(
      [
        "migrate", "roadmap.json", "--server", server, "--project", "demo-app", "--key",
        SyncSupport.token, "--status-map", "map.json",
      ], in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    let apply = try await run(
      [
        "reconcile", "roadmap.json", "--server", server, "--project", "demo-app", "--key",
        SyncSupport.token, "--apply", "to-votefirst",
      ], in: directory)
    #expect(apply.exitCode == 0, "\(apply.stdoutText)\(apply.stderrText)")
    #expect(apply.stdoutText.contains("are in sync."))
    #expect(
      apply.stdoutText.contains("create 0 stages; 0 features to create, 0 to change, 2 unchanged"),
      "\(apply.stdoutText)")
    let export = try await SyncSupport.export(board, "demo-app")
    let stages = (export["stages"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
    #expect(stages == ["Planned", "Shipped"])
  }

  /// Bug: with `--format json`, a migration that failed after its plan (a refused stage, a
  /// lost connection) printed nothing on standard output, though it had created stages.
  @Test func aFailureAfterThePlanStillPrintsTheJSONDocument() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Ten stages to create through a proxy that lets one write through (serve itself does
    // not limit admin calls), 429 never waited for: a write fails.
    let features = (1...10).map { #"{"id": "\#($0)", "title": "F", "status": "S\#($0)"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    let proxy = try await WriteLimitingProxy.start(for: board, burst: 1, perSecond: 0.001)
    defer {
      proxy.stop()
      board.process.kill()
    }
    let result = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", proxy.url, "--project", "demo-app",
        "--key", SyncSupport.token, "--format", "json",
      ], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "0"], workingDirectory: directory.url,
      timeout: .seconds(120))
    #expect(result.exitCode == 1, "\(result.stdoutText)\(result.stderrText)")
    #expect(result.stderrText.contains("Error: POST the stage"), "\(result.stderrText)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
      "\(result.stdoutText)")
    #expect(document["result"] is NSNull)
    #expect((document["error"] as? String)?.contains("429 rate_limited") == true)
    #expect((document["features"] as? [Any])?.count == 10)
  }

  /// Bug: `votes pull --format json` that failed part way printed nothing on standard
  /// output, though counts had been set.
  @Test func aPullThatFailsPartWayStillPrintsTheJSONDocument() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let features = (1...5).map { #"{"id": "\#($0)", "title": "F"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    let old = try await SyncSupport.serve(in: directory, name: "old")
    // One write through a proxy (serve itself does not limit admin calls), 429 never waited
    // for: a set fails.
    let board = try await SyncSupport.serve(in: directory, name: "board")
    let proxy = try await WriteLimitingProxy.start(for: board, burst: 1, perSecond: 0.001)
    defer {
      proxy.stop()
      old.process.kill()
      board.process.kill()
    }
    for id in 1...5 { try await SyncSupport.hit(old, "old-app", "feature\(id)", times: 2) }
    let result = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect", "countapi",
        "--namespace", "old-app", "--server", proxy.url, "--key", SyncSupport.token,
        "--format", "json",
      ], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "0"], workingDirectory: directory.url,
      timeout: .seconds(120))
    #expect(result.exitCode == 1, "\(result.stdoutText)\(result.stderrText)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any],
      "\(result.stdoutText)\(result.stderrText)")
    let set = try #require(document["set"] as? [[String: Any]])
    #expect(set.count < 5)
    #expect(document["unchanged"] is NSNull)
    #expect(document["error"] is String, "\(result.stdoutText)")
  }

  /// Bug: a stage the owner renamed on the board was read as a move of its features:
  /// `publish` gave them the new name as their status and dropped their translated statuses,
  /// and a rerun of `migrate` created the old stage again and moved them into it. A rename
  /// now keeps the stage (by its id): the features keep the status they were written with.
  @Test func aStageRenamedOnTheBoardIsARenameNotAMove() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let planned = #"[{"language": "de", "value": "geplant"}]"#
    try directory.write(
      "roadmap.json",
      """
      [{"id": "1", "title": "One", "status": "planned", "localizedStatus": \(planned)},
       {"id": "2", "title": "Two", "status": "Available ", "isFinished": true},
       {"id": "3", "title": "Three", "status": "planned"}]
      """)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let server = SyncSupport.url(board)
    let migrate = [
      "migrate", "roadmap.json", "--server", server, "--project", "demo-app", "--key",
      SyncSupport.token,
    ]
    let first = try await run(migrate, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    let publish = ["publish", "--server", server, "--project", "demo-app"]
    let before = try await run(publish, in: directory)
    #expect(before.exitCode == 0, "\(before.stderrText)")

    // The owner renames both stages (1: planned, 2: Available).
    for (id, name, finished) in [(1, "Next up", false), (2, "Shipped", true)] {
      let renamed = try await admin(
        board, "PUT", "/stages/\(id)",
        #"{"board": "roadmap", "name": "\#(name)", "position": \#(id - 1), "isFinished": \#(finished)}"#
      )
      #expect(renamed.status == 200, "\(renamed.body)")
    }

    let after = try await run(publish, in: directory)
    #expect(after.exitCode == 0, "\(after.stderrText)")
    #expect(after.stdoutText == before.stdoutText)
    let reconciled = try await run(
      ["reconcile", "roadmap.json", "--server", server, "--project", "demo-app"], in: directory)
    #expect(reconciled.exitCode == 0, "\(reconciled.stdoutText)\(reconciled.stderrText)")
    let rerun = try await run(migrate, in: directory)
    #expect(rerun.exitCode == 0, "\(rerun.stderrText)")
    #expect(!rerun.stdoutText.contains("create stage"), "\(rerun.stdoutText)")
    #expect(
      rerun.stdoutText.contains("0 features to create, 0 to change, 3 unchanged"),
      "\(rerun.stdoutText)")

    // A new feature with a status of a renamed stage goes into that stage.
    try directory.write(
      "roadmap.json",
      """
      [{"id": "1", "title": "One", "status": "planned", "localizedStatus": \(planned)},
       {"id": "2", "title": "Two", "status": "Available ", "isFinished": true},
       {"id": "3", "title": "Three", "status": "planned"},
       {"id": "4", "title": "Four", "status": "planned"}]
      """)
    let grown = try await run(migrate, in: directory)
    #expect(grown.exitCode == 0, "\(grown.stderrText)")
    #expect(grown.stdoutText.contains("Plan: create 0 stages; 1 feature to create, 0 to change"))
    let export = try await SyncSupport.export(board, "demo-app")
    let stages = try #require(export["stages"] as? [[String: Any]])
    #expect(stages.map { $0["name"] as? String } == ["Next up", "Shipped"])
    let features = try #require(export["features"] as? [[String: Any]])
    #expect(features.map { $0["stage"] as? Int } == [1, 2, 1, 1])
    let published = try await run(publish, in: directory)
    #expect(published.stdoutText.contains(#""status": "planned""#), "\(published.stdoutText)")
    #expect(!published.stdoutText.contains("Next up"), "\(published.stdoutText)")
  }
}
