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
}
