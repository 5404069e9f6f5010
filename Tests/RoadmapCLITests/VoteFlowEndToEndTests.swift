import Foundation
import Testing

/// The vote flows docs/migrating.md leads a user through, on real `roadmapctl serve`
/// processes: none may lose a vote or count one twice.
@Suite struct VoteFlowEndToEndTests {
  func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    let result = try await Roadmapctl.run(
      arguments, workingDirectory: directory.url, timeout: .seconds(120))
    #expect(result.exitCode == 0, "\(arguments): \(result.stderrText)")
    return result
  }

  /// Bug: `publish`, then `migrate` (or `reconcile --apply to-votefirst`) of that file,
  /// imported the board's count, identified votes included, as the source's: one more vote
  /// on the board each cycle. Now the published file changes no count, and `reconcile`
  /// agrees it is in sync.
  @Test func aPublishedRoadmapMigratedBackCountsNothingTwice() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "roadmap.json", #"[{"id":"1","title":"A","status":"planned","votes":3}]"#)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let server = ["--server", SyncSupport.url(board), "--project", "cycle.app"]
    let key = ["--key", SyncSupport.token]
    _ = try await run(["migrate", "roadmap.json"] + server + key, in: directory)
    let vote = try await board.get(
      "/hit/cycle.app/feature1", headers: ["X-Voter-ID": "alice"])
    #expect(vote.body == #"{"value":4}"#)
    for round in 1...2 {
      _ = try await run(["publish"] + server + ["--out", "published.json"], in: directory)
      let migrated = try await run(["migrate", "published.json"] + server + key, in: directory)
      #expect(
        migrated.stdoutText.contains("0 features to create, 0 to change, 1 unchanged"),
        "round \(round): \(migrated.stdoutText)")
      _ = try await run(
        ["reconcile", "published.json", "--apply", "to-votefirst"] + server + key, in: directory)
      #expect(try await SyncSupport.value(board, "cycle.app", "feature1") == 4, "round \(round)")
    }
    // A count that did move at the source still moves the board by as much.
    try directory.write(
      "roadmap.json", #"[{"id":"1","title":"A","status":"planned","votes":5}]"#)
    _ = try await run(["migrate", "roadmap.json"] + server + key, in: directory)
    #expect(try await SyncSupport.value(board, "cycle.app", "feature1") == 6)
  }

  /// Bug: `votes pull` copied the old API's counts in (4 and 5), and `migrate` of the roadmap,
  /// whose own `votes` lagged behind (1 and 2), set the counters back to them.
  @Test func aMigrationAfterAPullKeepsThePulledCounts() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "roadmap.json",
      #"[{"id":"1","title":"A","votes":1},{"id":"2","title":"B","votes":2},"#
        + #"{"id":"3","title":"C","votes":7}]"#)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    try await SyncSupport.hit(old, "old.app", "feature1", times: 4)
    try await SyncSupport.hit(old, "old.app", "feature2", times: 5)
    try await SyncSupport.hit(old, "old.app", "feature3", times: 1)
    let server = ["--server", SyncSupport.url(board), "--project", "pulled.app"]
    let key = ["--key", SyncSupport.token]
    _ = try await run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect", "countapi",
        "--namespace", "old.app",
      ] + server + key,
      in: directory)
    _ = try await run(["migrate", "roadmap.json"] + server + key, in: directory)
    #expect(try await SyncSupport.value(board, "pulled.app", "feature1") == 4)
    #expect(try await SyncSupport.value(board, "pulled.app", "feature2") == 5)
    // The JSON says more than was pulled: the JSON's count, as a first import sets it.
    #expect(try await SyncSupport.value(board, "pulled.app", "feature3") == 7)
    // A rerun changes nothing.
    _ = try await run(["migrate", "roadmap.json"] + server + key, in: directory)
    #expect(try await SyncSupport.value(board, "pulled.app", "feature1") == 4)
    #expect(try await SyncSupport.value(board, "pulled.app", "feature2") == 5)
  }
}
