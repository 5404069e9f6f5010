import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

/// `publish`, `GET /roadmap/:project.json` and `reconcile` of what they give, against a real
/// `roadmapctl serve`, for counts a migration kept because VoteFirst cannot count them.
@Suite struct PublishEndToEndTests {
  static let roadmap =
    #"[{"id":"n1","title":"Neg","votes":-3},{"id":"n2","title":"Pos","votes":5}]"#

  func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    try await Roadmapctl.run(arguments, workingDirectory: directory.url, timeout: .seconds(120))
  }

  func features(_ bytes: [UInt8]) throws -> [RoadmapFeature] {
    try RoadmapDocument.read(bytes, mode: .compatible).features
  }

  func votes(_ bytes: [UInt8]) throws -> [Int?] {
    try features(bytes).map(\.votes)
  }

  func file(_ name: String, in directory: TemporaryDirectory) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.url.appendingPathComponent(name)))
  }

  /// `publish` of the project, its exit status checked.
  func publish(_ board: ServeProcess, in directory: TemporaryDirectory) async throws -> [UInt8] {
    let published = try await run(
      ["publish", "--server", SyncSupport.url(board), "--project", "neg.app"], in: directory)
    #expect(published.exitCode == 0, "\(published.stderrText)")
    return published.stdout
  }

  /// `reconcile FILE --server …` plus `arguments`.
  func reconcile(
    _ file: String, _ board: ServeProcess, in directory: TemporaryDirectory,
    _ arguments: [String] = []
  ) async throws -> ProcessResult {
    try await run(
      ["reconcile", file, "--server", SyncSupport.url(board), "--project", "neg.app"]
        + arguments, in: directory)
  }

  /// A board with the roadmap migrated onto it, and what the migration printed.
  func migratedBoard(in directory: TemporaryDirectory) async throws -> (
    ServeProcess, ProcessResult
  ) {
    try directory.write("neg.json", Self.roadmap)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    do {
      let migrated = try await run(
        [
          "migrate", "neg.json", "--server", SyncSupport.url(board), "--project", "neg.app",
          "--key", SyncSupport.token,
        ], in: directory)
      #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
      return (board, migrated)
    } catch {
      board.process.kill()
      throw error
    }
  }

  @Test func aNegativeCountIsPublishedBackWhileTheBoardStillCountsWhatWasImported() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (board, migrated) = try await migratedBoard(in: directory)
    defer { board.process.kill() }
    #expect(
      migrated.stderrText.contains(
        "the Roadmap JSON published back keeps -3 while that count holds"))

    // publish, the live document and the offline convert of the server's export agree.
    let published = try await publish(board, in: directory)
    #expect(try features(published) == features(Array(Self.roadmap.utf8)))
    let live = try await board.get("/roadmap/neg.app.json")
    #expect(live.status == 200)
    #expect(try features(Array(live.body.utf8)) == features(Array(Self.roadmap.utf8)))
    let export = try await board.get(
      "/api/v1/neg.app/export", headers: ["Authorization": "Bearer \(SyncSupport.token)"])
    #expect(export.status == 200, "\(export.body)")
    try directory.write("export.json", export.body)
    let converted = try await run(
      ["convert", "export.json", "--to", "roadmap", "--out", "converted.json"], in: directory)
    #expect(converted.exitCode == 0, "\(converted.stderrText)")
    #expect(try features(file("converted.json", in: directory)) == features(published))

    // What was published is in sync with the board.
    try directory.write("neg-published.json", bytes: published)
    let inSync = try await reconcile("neg-published.json", board, in: directory)
    #expect(inSync.exitCode == 0, "\(inSync.stdoutText)\(inSync.stderrText)")
    #expect(inSync.stdoutText.hasSuffix("are in sync.\n"))

    // A file that says 0 (as publish wrote before) drifts, and --apply to-roadmap settles it.
    try directory.write(
      "zero.json", #"[{"id":"n1","title":"Neg","votes":0},{"id":"n2","title":"Pos","votes":5}]"#)
    let drifted = try await reconcile("zero.json", board, in: directory)
    #expect(drifted.exitCode == 1, "\(drifted.stdoutText)")
    #expect(
      drifted.stdoutText.contains("feature n1: votes: roadmap 0, VoteFirst 0 (published as -3)"))
    let applied = try await reconcile(
      "zero.json", board, in: directory, ["--apply", "to-roadmap", "--out", "settled.json"])
    #expect(applied.exitCode == 0, "\(applied.stderrText)")
    #expect(try votes(file("settled.json", in: directory)) == [-3, 5])
    let settled = try await reconcile("settled.json", board, in: directory)
    #expect(settled.exitCode == 0, "\(settled.stdoutText)\(settled.stderrText)")
  }

  @Test func onceAVoteMovesTheCountTheBoardsCountWins() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (board, _) = try await migratedBoard(in: directory)
    defer { board.process.kill() }
    try directory.write("neg-published.json", bytes: try await publish(board, in: directory))

    // One vote, through the countapi route old app versions use (the board's own counter).
    try await SyncSupport.hit(board, "neg.app", "featuren1", times: 1)
    let published = try await publish(board, in: directory)
    #expect(try votes(published) == [1, 5])
    let live = try await board.get("/roadmap/neg.app.json")
    #expect(try votes(Array(live.body.utf8)) == [1, 5])

    // The file published before the vote drifted; the one published after it is in sync.
    let drifted = try await reconcile("neg-published.json", board, in: directory)
    #expect(drifted.exitCode == 1)
    #expect(drifted.stdoutText.contains("feature n1: votes: roadmap -3, VoteFirst 1"))
    try directory.write("after.json", bytes: published)
    let inSync = try await reconcile("after.json", board, in: directory)
    #expect(inSync.exitCode == 0, "\(inSync.stdoutText)\(inSync.stderrText)")
  }

  /// A feature the owner moves to another stage and renames on the board is published with
  /// the new stage's translated status and its new title in the translation that was the
  /// title: apps in English and German showed "Maps" and "Planned" / "Geplant" before.
  @Test func aMoveAndANewTitleOnTheBoardReachTheTranslations() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "translated.json",
      """
      [{"id":"1","title":"Maps","status":"Planned",
        "localizedTitle":[{"language":"en","value":"Maps"},{"language":"de","value":"Karten"}],
        "localizedStatus":[{"language":"en","value":"Planned"},{"language":"de","value":"Geplant"}]},
       {"id":"2","title":"Sync","status":"Done","isFinished":true,
        "localizedStatus":[{"language":"en","value":"Done"},{"language":"de","value":"Fertig"}]}]
      """)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let migrated = try await run(
      [
        "migrate", "translated.json", "--server", SyncSupport.url(board), "--project", "neg.app",
        "--key", SyncSupport.token,
      ], in: directory)
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")

    // The owner's edit, as an admin client makes it: the whole content, extras included.
    let admin = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: URL(string: SyncSupport.url(board))!, project: "neg.app",
        adminToken: SyncSupport.token),
      voterID: "owner")
    let snapshot = try await admin.board()
    let done = try #require(snapshot.stages.first { $0.name == "Done" })
    let maps = try #require(try await admin.allFeatures().first { $0.content.ref == "1" })
    var content = maps.content
    content.stage = done.id
    content.title = "World maps"
    _ = try await admin.updateFeature(id: maps.id, content)

    let published = try features(try await publish(board, in: directory))
    #expect(published[0].title == "World maps")
    #expect(published[0].status == "Done")
    #expect(published[0].localizedTitle?.map(\.value) == ["World maps", "Karten"])
    #expect(published[0].localizedStatus?.map(\.value) == ["Done", "Fertig"])
    let live = try await board.get("/roadmap/neg.app.json")
    #expect(try features(Array(live.body.utf8)) == published)

    // The old file drifted in those translations; the one published now is in sync.
    let drifted = try await reconcile("translated.json", board, in: directory)
    #expect(drifted.exitCode == 1)
    #expect(drifted.stdoutText.contains("localizedStatus"), "\(drifted.stdoutText)")
    try directory.write("published.json", bytes: RoadmapWriter.write(published))
    let inSync = try await reconcile("published.json", board, in: directory)
    #expect(inSync.exitCode == 0, "\(inSync.stdoutText)\(inSync.stderrText)")
  }

  /// Bug: a feature whose ref cannot be a Roadmap id (`feature` + ref is no counter key: a
  /// space, a `/`, 58 characters or more) was published under that ref, and `roadmapctl
  /// validate` refused the whole file `publish` wrote (`invalid-counter-key`). Such a feature
  /// is now published as a feature without a ref is, `vf-ID` (named on standard error), and
  /// migrating the file back gives it that ref instead of a second feature.
  @Test func aRefThatCannotBeARoadmapIDIsPublishedAsItsStandIn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let port = board.port
    let long = String(repeating: "l", count: 58)
    for ref in ["ok", "a%20b", "x%2Fy", long] {
      let answer = try await WireClient.onThread {
        try WireConnection(port: port).exchange(
          "PUT", "/api/v1/bad.app/features/ref/\(ref)",
          fields: [
            ("Authorization", "Bearer \(SyncSupport.token)"),
            ("Content-Type", "application/json"),
          ], body: Array(#"{"title": "T"}"#.utf8))
      }
      #expect(answer.status == 201, "\(answer.body)")
    }
    let server = SyncSupport.url(board)
    let published = try await run(
      ["publish", "--server", server, "--project", "bad.app", "--out", "published.json"],
      in: directory)
    #expect(published.exitCode == 0, "\(published.stderrText)")
    #expect(published.stderrText.contains("feature a b, id: its ref 'a b' cannot be a Roadmap id"))
    let ids = try features(try file("published.json", in: directory)).map(\.id)
    #expect(ids == ["ok", "vf-2", "vf-3", "vf-4"])
    let validated = try await run(["validate", "published.json"], in: directory)
    #expect(validated.exitCode == 0, "\(validated.stdoutText)\(validated.stderrText)")

    // Migrated back, each takes its stand-in as its ref: no copies.
    let migrated = try await run(
      [
        "migrate", "published.json", "--server", server, "--project", "bad.app", "--key",
        SyncSupport.token,
      ], in: directory)
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    #expect(migrated.stdoutText.contains("0 features to create, 3 to change, 1 unchanged"))
    let export = try await SyncSupport.export(board, "bad.app")
    let refs = try #require(export["features"] as? [[String: Any]]).map { $0["ref"] as? String }
    #expect(refs == ["ok", "vf-2", "vf-3", "vf-4"])
  }
}
