import Foundation
import RoadmapFormat
import Testing

/// `migrate`, `publish` and `reconcile --server` against real `roadmapctl serve` processes: an
/// old counting API (countapi dialect) and the board.
@Suite struct MigrateEndToEndTests {
  static let roadmap = """
    [
      {"id": "1", "title": "Widgets", "status": "planned", "isFinished": false,
       "localizedTitle": [{"language": "de", "value": "Widgets!"}],
       "localizedStatus": [{"language": "de", "value": "Geplant"}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": true},
      {"id": "3", "title": "Dark mode", "status": "Available ", "isFinished": false},
      {"id": "4", "title": "Maps", "status": "?", "url": "https://example.com/maps", "price": 1.50},
      {"id": "5", "title": "", "description": ""},
      {"id": "6", "isFinished": true, "localizedTitle": []}
    ]
    """

  func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    try await Roadmapctl.run(arguments, workingDirectory: directory.url, timeout: .seconds(120))
  }

  func json(_ result: ProcessResult) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
  }

  @Test func migrateWithCountedVotesThenARerunChangesNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    try await SyncSupport.hit(old, "old-app", "feature1", times: 4)
    try await SyncSupport.hit(old, "old-app", "feature2", times: 2)  // finished, still counted
    let migrate = [
      "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
      "--key", SyncSupport.token, "--votes-from", SyncSupport.url(old), "--dialect", "countapi",
      "--namespace", "old-app", "--format", "json",
    ]
    let first = try await run(migrate, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    let firstPlan = try json(first)
    #expect(firstPlan["result"] as? [String: Int] == ["created": 6, "updated": 0, "unchanged": 0])
    #expect(
      (firstPlan["stages"] as? [String: [String]])?["create"]
        == ["planned", "Finished", "Available", "?"])

    let again = try await run(migrate, in: directory)
    #expect(again.exitCode == 0, "\(again.stderrText)")
    let secondPlan = try json(again)
    #expect(secondPlan["result"] is NSNull)
    #expect((secondPlan["stages"] as? [String: [String]])?["create"] == [])
    let actions = (secondPlan["features"] as? [[String: Any]])?.map { $0["action"] as? String }
    #expect(actions == Array(repeating: "unchanged", count: 6))

    // Published back: every feature as it was, with the counts filled in.
    let published = try await run(
      ["publish", "--server", SyncSupport.url(board), "--project", "demo-app"], in: directory)
    #expect(published.exitCode == 0, "\(published.stderrText)")
    var expected = try RoadmapDocument.read(Array(Self.roadmap.utf8), mode: .compatible).features
    for index in expected.indices { expected[index].votes = [4, 2, 0, 0, 0, 0][index] }
    let features = try RoadmapDocument.read(published.stdout, mode: .compatible).features
    #expect(features == expected)

    let reconcile = try await run(
      [
        "reconcile", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--counts", SyncSupport.url(old), "--namespace", "old-app",
      ], in: directory)
    #expect(reconcile.exitCode == 0, "\(reconcile.stdoutText)\(reconcile.stderrText)")
    #expect(reconcile.stdoutText.hasSuffix("are in sync.\n"))

    // A vote on the old API is drift, until the board is brought level.
    try await SyncSupport.hit(old, "old-app", "feature3", times: 1)
    let drifted = try await run(
      [
        "reconcile", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--counts", SyncSupport.url(old), "--namespace", "old-app",
      ], in: directory)
    #expect(drifted.exitCode == 1)
    #expect(drifted.stdoutText.contains("feature 3: votes: VoteFirst 0, counting API 1"))
    let applied = try await run(
      [
        "reconcile", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--counts", SyncSupport.url(old), "--namespace", "old-app", "--apply", "to-votefirst",
        "--key", SyncSupport.token,
      ], in: directory)
    #expect(applied.exitCode == 0, "\(applied.stderrText)")
    #expect(applied.stdoutText.contains("update feature 3: votes"))
    let level = try await run(
      [
        "reconcile", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--counts", SyncSupport.url(old), "--namespace", "old-app",
      ], in: directory)
    #expect(level.exitCode == 0, "\(level.stdoutText)")
  }

  /// A negative `votes` beside another kept original (a status with a trailing space, a
  /// translation): the second run of the same file, and `reconcile --apply to-votefirst`,
  /// change nothing (the second run wrote the mapping's own member again, in another key
  /// order: "update feature n1: extra").
  @Test func aKeptNegativeCountBesideOtherOriginalsIsUnchangedOnARerun() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "min.json",
      #"[{"id":"n1","title":"x","status":"Available ","votes":-3},"#
        + #"{"id":"a2","title":"y","votes":-1,"localizedTitle":[{"language":"de","value":"Y"}]}]"#)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let server = ["--server", SyncSupport.url(board), "--project", "idem.app"]
    let migrate = ["migrate", "min.json"] + server + ["--key", SyncSupport.token]
    let first = try await run(migrate, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    let exported = try await SyncSupport.export(board, "idem.app")
    for _ in 0..<2 {
      let again = try await run(migrate, in: directory)
      #expect(again.exitCode == 0, "\(again.stderrText)")
      #expect(!again.stdoutText.contains("update feature"), "\(again.stdoutText)")
      #expect(
        again.stdoutText.contains("0 features to create, 0 to change, 2 unchanged"),
        "\(again.stdoutText)")
    }
    let applied = try await run(
      ["reconcile", "min.json"] + server + ["--apply", "to-votefirst", "--key", SyncSupport.token],
      in: directory)
    #expect(applied.exitCode == 0, "\(applied.stdoutText)\(applied.stderrText)")
    #expect(!applied.stdoutText.contains("update feature"), "\(applied.stdoutText)")
    // What the board holds is what the first run wrote.
    let features = { (export: [String: Any]) in
      (export["features"] as? [[String: Any]])?.map { feature in
        (feature["extra"] as? [[String: Any]])?.map { "\($0["key"] ?? "")=\($0["json"] ?? "")" }
      }
    }
    #expect(features(try await SyncSupport.export(board, "idem.app")) == features(exported))
  }

  @Test func votesCastOnTheBoardsCounterSurviveARerun() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "roadmap.json",
      #"[{"id": "a", "title": "A", "votes": 5}, {"id": "b", "title": "B"}, {"id": "c", "title": "C"}]"#
    )
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    try await SyncSupport.hit(old, "old-app", "featurec", times: 3)
    func migrate(_ extra: [String] = []) async throws -> [String: Any] {
      let result = try await run(
        [
          "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
          "--key", SyncSupport.token, "--format", "json",
        ] + extra, in: directory)
      #expect(result.exitCode == 0, "\(result.stderrText)")
      return try json(result)
    }
    func actions(_ plan: [String: Any]) -> [String?] {
      (plan["features"] as? [[String: Any]] ?? []).map { $0["action"] as? String }
    }
    let counted = [
      "--votes-from", SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app",
    ]
    let first = try await migrate(counted)
    #expect(first["result"] as? [String: Int] == ["created": 3, "updated": 0, "unchanged": 0])
    #expect(try await SyncSupport.value(board, "demo-app", "featurea") == 0)
    #expect(try await SyncSupport.value(board, "demo-app", "featurec") == 3)

    // Old app versions pointed at the board's server vote through its countapi routes.
    try await SyncSupport.hit(board, "demo-app", "featurea", times: 2)
    try await SyncSupport.hit(board, "demo-app", "featureb", times: 1)
    try await SyncSupport.hit(board, "demo-app", "featurec", times: 1)
    let rerun = try await migrate(counted)
    #expect(rerun["result"] is NSNull)
    #expect(actions(rerun) == ["unchanged", "unchanged", "unchanged"])
    #expect(try await SyncSupport.value(board, "demo-app", "featurea") == 2)
    #expect(try await SyncSupport.value(board, "demo-app", "featureb") == 1)
    #expect(try await SyncSupport.value(board, "demo-app", "featurec") == 4)

    // The old API counts two more: they are added, and the board's own votes stay.
    try await SyncSupport.hit(old, "old-app", "featurec", times: 2)
    let caughtUp = try await migrate(counted)
    #expect(actions(caughtUp) == ["unchanged", "unchanged", "update"])
    #expect(try await SyncSupport.value(board, "demo-app", "featurec") == 6)

    // Without --votes-from the JSON's own votes are the source: the same holds.
    let fromJSON = try await migrate()
    #expect(actions(fromJSON) == ["update", "unchanged", "unchanged"])
    #expect(try await SyncSupport.value(board, "demo-app", "featurea") == 7)
    #expect(actions(try await migrate()) == ["unchanged", "unchanged", "unchanged"])
    #expect(try await SyncSupport.value(board, "demo-app", "featurea") == 7)

    // The board's own counters as the source would count its votes twice: refused.
    let own = try await run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--key", SyncSupport.token, "--votes-from", SyncSupport.url(board).uppercased() + "/",
        "--dialect", "ours", "--namespace", "demo-app",
      ], in: directory)
    #expect(own.exitCode == 64)
    #expect(own.stderrText.contains("are the board's own counters, which already hold these votes"))
    #expect(try await SyncSupport.value(board, "demo-app", "featurea") == 7)
  }

  @Test func theOutcomeCountsTheFeaturesLeftAsTheyWereAsUnchanged() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func roadmap(_ changed: Set<Int>) -> String {
      let features = (1...8).map { id in
        #"{"id":"\#(id)","title":"Feature \#(id)\#(changed.contains(id) ? " (new)" : "")"}"#
      }
      return "[" + features.joined(separator: ",") + "]"
    }
    try directory.write("roadmap.json", roadmap([]))
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let url = SyncSupport.url(board)
    let migrate = [
      "migrate", "roadmap.json", "--server", url, "--project", "demo-app", "--key",
      SyncSupport.token,
    ]
    let first = try await run(migrate, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    #expect(
      first.stdoutText.hasSuffix(
        "Plan: create 0 stages; 8 features to create, 0 to change, 0 unchanged.\n"
          + "Migrated 8 features to demo-app on \(url): 8 created, 0 updated, 0 unchanged; "
          + "0 stages created.\n"))

    try directory.write("roadmap.json", roadmap([3]))
    let second = try await run(migrate, in: directory)
    #expect(second.exitCode == 0, "\(second.stderrText)")
    #expect(
      second.stdoutText == """
        update feature 3: title
        Plan: create 0 stages; 0 features to create, 1 to change, 7 unchanged.
        Migrated 8 features to demo-app on \(url): 0 created, 1 updated, 7 unchanged; \
        0 stages created.

        """)

    try directory.write("roadmap.json", roadmap([3, 5]))
    let json = try await run(migrate + ["--format", "json"], in: directory)
    #expect(json.exitCode == 0, "\(json.stderrText)")
    #expect(
      try self.json(json)["result"] as? [String: Int] == [
        "created": 0, "updated": 1, "unchanged": 7,
      ])

    try directory.write("roadmap.json", roadmap([3, 5, 8]))
    let applied = try await run(
      [
        "reconcile", "roadmap.json", "--server", url, "--project", "demo-app", "--apply",
        "to-votefirst", "--key", SyncSupport.token,
      ], in: directory)
    #expect(applied.exitCode == 0, "\(applied.stderrText)")
    #expect(
      applied.stdoutText.hasSuffix(
        "Plan: create 0 stages; 0 features to create, 1 to change, 7 unchanged.\n"
          + "Migrated 8 features to demo-app on \(url): 0 created, 1 updated, 7 unchanged; "
          + "0 stages created.\n"))
  }

  @Test func withTheKeyReconcileComparesACountingAPIWithWhatTheBoardImported() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id": "1", "title": "Widgets"}]"#)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    let server = ["--server", SyncSupport.url(board), "--project", "demo-app"]
    let counts = ["--counts", SyncSupport.url(old), "--namespace", "old-app"]
    try await SyncSupport.hit(old, "old-app", "feature1", times: 3)
    let migrated = try await run(
      ["migrate", "roadmap.json"] + server
        + [
          "--key", SyncSupport.token, "--votes-from", SyncSupport.url(old), "--namespace",
          "old-app",
        ], in: directory)
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    try await SyncSupport.hit(board, "demo-app", "feature1", times: 2)  // the board's own
    func reconcile(_ extra: [String]) async throws -> ProcessResult {
      try await Roadmapctl.run(
        ["reconcile", "roadmap.json"] + server + counts + extra,
        environment: ["ROADMAPCTL_ADMIN_TOKEN": ""], workingDirectory: directory.url,
        timeout: .seconds(120))
    }
    // Without the key only the totals can be compared.
    let totals = try await reconcile([])
    #expect(totals.exitCode == 1)
    #expect(totals.stdoutText.contains("feature 1: votes: VoteFirst 5, counting API 3"))
    let withKey = try await reconcile(["--key", SyncSupport.token])
    #expect(withKey.exitCode == 0, "\(withKey.stdoutText)\(withKey.stderrText)")
    // A vote on the old API is drift until the board takes it in; the board's stay.
    try await SyncSupport.hit(old, "old-app", "feature1", times: 1)
    let drifted = try await reconcile(["--key", SyncSupport.token, "--format", "json"])
    #expect(drifted.exitCode == 1)
    #expect(
      drifted.stdoutText.contains(
        #"{"ref":"1","roadmap":null,"voteFirst":5,"counted":4,"published":null,"imported":3}"#))
    let applied = try await reconcile(["--key", SyncSupport.token, "--apply", "to-votefirst"])
    #expect(applied.exitCode == 0, "\(applied.stderrText)")
    #expect(try await SyncSupport.value(board, "demo-app", "feature1") == 6)
    #expect(try await reconcile(["--key", SyncSupport.token]).exitCode == 0)
  }

  @Test func aMigrationCutOffHalfwayFinishesOnTheNextRun() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    // A proxy that lets a burst of 3 writes through (serve itself does not limit admin
    // calls): the fourth stage is refused.
    let limited = try await SyncSupport.serve(in: directory, name: "board")
    let proxy = try await WriteLimitingProxy.start(for: limited, burst: 3, perSecond: 0.001)
    defer { proxy.stop() }
    func migrate(_ server: String) -> [String] {
      [
        "migrate", "roadmap.json", "--server", server, "--project", "demo-app",
        "--key", SyncSupport.token,
      ]
    }
    // Told not to wait for the limit (it would wait and finish), so it stops part way.
    let cut = try await Roadmapctl.run(
      migrate(proxy.url), environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "0"],
      workingDirectory: directory.url, timeout: .seconds(120))
    limited.process.kill()
    // The next server opens the same data directory: it refused to while this one still ran
    // ("busy: … already open in another process").
    _ = try await limited.process.waitForExit()
    #expect(cut.exitCode == 1)
    #expect(
      cut.stderrText.contains(
        "of project demo-app on \(proxy.url) failed: HTTP 429 rate_limited"))
    #expect(cut.stderrText.contains("creating stages: 3/4"))

    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let halfway = try await SyncSupport.export(board, "demo-app")
    #expect((halfway["stages"] as? [Any])?.count == 3)
    #expect((halfway["features"] as? [Any])?.count == 0)

    let rerun = try await run(
      migrate(SyncSupport.url(board)) + ["--format", "json"], in: directory)
    #expect(rerun.exitCode == 0, "\(rerun.stderrText)")
    let plan = try json(rerun)
    #expect((plan["stages"] as? [String: [String]])?["create"] == ["?"])
    #expect(
      (plan["stages"] as? [String: [String]])?["reuse"] == ["planned", "Finished", "Available"])
    #expect(plan["result"] as? [String: Int] == ["created": 6, "updated": 0, "unchanged": 0])
    let done = try await SyncSupport.export(board, "demo-app")
    let names = (done["stages"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
    #expect(names == ["planned", "Finished", "Available", "?"])
    #expect((done["features"] as? [Any])?.count == 6)
  }

  @Test func missingCountsAreAllowedOnlyWhenAsked() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "roadmap.json", #"[{"id":"1","title":"A","votes":5},{"id":"2","title":"B"}]"#)
    let port = try await SyncSupport.closedPort(in: directory)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let migrate = [
      "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
      "--key", SyncSupport.token, "--votes-from", "http://127.0.0.1:\(port)", "--dialect", "ours",
      "--namespace", "old-app",
    ]
    let stopped = try await run(migrate, in: directory)
    #expect(stopped.exitCode == 1)
    #expect(stopped.stderrText.contains("cannot read the count of feature 1: offline"))
    #expect((try await SyncSupport.export(board, "demo-app")["features"] as? [Any])?.count == 0)
    let allowed = try await run(
      migrate + ["--allow-missing-votes", "--format", "json"], in: directory)
    #expect(allowed.exitCode == 0, "\(allowed.stderrText)")
    // Each count that could not be read is a loss of the migration, in its report.
    let losses = try #require(try json(allowed)["losses"] as? [[String: String]])
    #expect(losses.map { $0["feature"] } == ["1", "2"])
    #expect(losses.allSatisfy { $0["field"] == "votes" && $0["kind"] == "altered" })
    #expect(losses[0]["reason"]?.hasSuffix("the JSON's own were migrated: its 5 votes") == true)
    #expect(losses[1]["reason"]?.hasSuffix("no votes (it has none)") == true)
    #expect(
      allowed.stderrText.contains(
        "altered: feature 1, votes: its count could not be read from http://127.0.0.1:\(port) "
          + "(offline"), "\(allowed.stderrText)")
    let published = try await run(
      ["publish", "--server", SyncSupport.url(board), "--project", "demo-app"], in: directory)
    let features = try RoadmapDocument.read(published.stdout, mode: .compatible).features
    // The JSON's own votes where the count could not be read.
    #expect(features.map(\.votes) == [5, 0])
  }

  @Test func aDryRunWritesNothingAndAWrongKeyIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let dry = try await run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--key", SyncSupport.token, "--dry-run",
      ], in: directory)
    #expect(dry.exitCode == 0, "\(dry.stderrText)")
    #expect(
      dry.stdoutText.hasSuffix(
        "Dry run: would create 4 stages; 6 features to create, 0 to change, 0 unchanged.\n"))
    // Not even the project was created (any admin call would have created it).
    let absent = try await run(
      ["publish", "--server", SyncSupport.url(board), "--project", "demo-app"], in: directory)
    #expect(absent.exitCode == 1)
    #expect(absent.stderrText.contains("HTTP 404 project_not_found"), "\(absent.stderrText)")
    let export = try await SyncSupport.export(board, "demo-app")
    #expect((export["stages"] as? [Any])?.isEmpty == true)
    #expect((export["features"] as? [Any])?.isEmpty == true)
    let wrong = try await run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--key", "wrong",
      ], in: directory)
    #expect(wrong.exitCode == 1)
    #expect(
      wrong.stderrText.contains(
        "GET the export of project demo-app on \(SyncSupport.url(board)) failed: HTTP 403 forbidden"
      ))
    #expect(wrong.stderrText.contains("Is --key the server's admin token?"))
    let missing = try await run(
      ["publish", "--server", SyncSupport.url(board), "--project", "demo-app", "--board", "nope"],
      in: directory)
    #expect(missing.exitCode == 1)
    #expect(missing.stderrText.contains("HTTP 404 board_not_found"))
  }

  /// A server started without an admin token takes no admin call: its refusal, and migrate's
  /// hint, say the server has none, not that the token sent is wrong.
  @Test func aServerWithoutAnAdminTokenSaysItHasNone() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let data = directory.url.appendingPathComponent("board")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let board = try await ServeProcess.start(
      dataDirectory: data, ["--read-limit", "0", "--write-limit", "0"],
      environment: ["ROADMAPCTL_ADMIN_TOKEN": ""])
    defer { board.process.kill() }
    let none =
      "this server has no admin token configured: start roadmapctl serve with --admin-token "
      + "or ROADMAPCTL_ADMIN_TOKEN"
    let wrong = try await board.get(
      "/api/v1/demo-app/export", headers: ["Authorization": "Bearer anything"])
    #expect(wrong.status == 403)
    #expect(wrong.body == #"{"error":{"code":"forbidden","message":"\#(none)"}}"#)
    let bare = try await board.get("/api/v1/demo-app/export")
    #expect(bare.status == 401)
    #expect(bare.body.contains("this call needs 'Authorization: Bearer TOKEN', and \(none)"))
    let migrate = try await run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--key", "anything",
      ], in: directory)
    #expect(migrate.exitCode == 1)
    #expect(
      migrate.stderrText.contains(
        "failed: HTTP 403 forbidden: \(none). Restart it with a token, and pass the same one here "
          + "as --key."), "\(migrate.stderrText)")
    #expect(!migrate.stderrText.contains("Is --key the server's admin token?"))
  }

  /// Bug: a wrong `--namespace` (or `--key-template`) read every count as 0, and `migrate`
  /// planned and imported those zeros without a word (a `--dry-run` showed nothing either; on
  /// a rerun they took the imported votes off the board). When none of the counters exists
  /// in the namespace, it now refuses, naming the namespace, unless `--allow-empty-namespace`
  /// (then it warns, on standard error and in `--format json`'s `"warnings"`); `votes pull`
  /// warns. Both for a per-key dialect and for `ours` (whose batch answers a missing key 0).
  @Test(arguments: ["countapi", "ours"])
  func aNamespaceWithNoneOfTheCountersIsNamed(dialect: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    try await SyncSupport.hit(old, "com.example.app", "feature1", times: 4)
    func migrate(_ namespace: String, _ extra: [String] = []) async throws -> ProcessResult {
      try await run(
        [
          "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
          "--key", SyncSupport.token, "--votes-from", SyncSupport.url(old), "--dialect", dialect,
          "--namespace", namespace, "--dry-run",
        ] + extra, in: directory)
    }
    let wrong = try await migrate("com.exmaple.app")
    #expect(wrong.exitCode == 1)
    #expect(wrong.stdoutText.isEmpty, "\(wrong.stdoutText)")
    #expect(
      wrong.stderrText.contains(
        "none of the 6 counters read (feature1, feature2, feature3, …) exists in the namespace "
          + "'com.exmaple.app' of \(SyncSupport.url(old)), so every count reads as 0: check "
          + "--namespace"), "\(wrong.stderrText)")
    #expect(wrong.stderrText.contains("pass --allow-empty-namespace"))

    let allowed = try await migrate(
      "com.exmaple.app", ["--allow-empty-namespace", "--format", "json"])
    #expect(allowed.exitCode == 0, "\(allowed.stderrText)")
    #expect(allowed.stderrText.contains("warning: none of the 6 counters read"))
    let warnings = try json(allowed)["warnings"] as? [String]
    #expect(warnings?.first?.contains("'com.exmaple.app'") == true, "\(allowed.stdoutText)")

    let right = try await migrate("com.example.app", ["--format", "json"])
    #expect(right.exitCode == 0, "\(right.stderrText)")
    #expect(!right.stderrText.contains("warning"), "\(right.stderrText)")
    #expect(try json(right)["warnings"] == nil)

    let pulled = try await run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect", dialect,
        "--namespace", "com.exmaple.app", "--server", SyncSupport.url(board), "--project",
        "demo-app", "--key", SyncSupport.token, "--dry-run",
      ], in: directory)
    #expect(pulled.exitCode == 0, "\(pulled.stderrText)")
    #expect(
      pulled.stderrText.contains("warning: none of the 6 counters read"), "\(pulled.stderrText)")
  }

  /// Bug: from another `roadmapctl serve` (`ours`, or `countapi` read through its `/counts`),
  /// the check for counters that do not exist asked only whether the namespace was empty, so
  /// a wrong `--key-template` in the namespace that holds the counters (`feature-{id}` for
  /// `feature1`) read every count as 0 and `migrate` planned those zeros without a word. The
  /// features' keys are now looked for among the namespace's counters.
  @Test(arguments: ["countapi", "ours"])
  func aKeyTemplateThatNamesNoneOfTheCountersIsNamed(dialect: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    try await SyncSupport.hit(old, "com.example.app", "feature1", times: 4)
    let wrong = try await run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--key", SyncSupport.token, "--votes-from", SyncSupport.url(old), "--dialect", dialect,
        "--namespace", "com.example.app", "--key-template", "feature-{id}", "--dry-run",
      ], in: directory)
    #expect(wrong.exitCode == 1, "\(wrong.stdoutText)")
    #expect(
      wrong.stderrText.contains(
        "none of the 6 counters read (feature-1, feature-2, feature-3, …) exists in the "
          + "namespace 'com.example.app'"), "\(wrong.stderrText)")
    #expect(wrong.stderrText.contains("--key-template (feature-{id})"))
  }

  /// Bug: migrations running at the same time each reported every stage of their plan as
  /// created ("5 stages created" three times over for 5 stages), since a stage another run
  /// had made meanwhile comes back from `POST …/stages?reuse=name` as if made. Each stage is
  /// now counted by the run whose call created it (`201`), so the runs' counts add up to the
  /// stages on the board, however their calls interleave.
  @Test func concurrentMigrationsCountEachStageOnce() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let roadmap = (1...40).map { #"{"id": "\#($0)", "title": "F", "status": "s\#($0)"}"# }
    try directory.write("roadmap.json", "[" + roadmap.joined(separator: ",") + "]")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let arguments = [
      "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "race-app",
      "--key", SyncSupport.token,
    ]
    let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
      for _ in 0..<4 { group.addTask { try await self.run(arguments, in: directory) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    var created = 0
    for result in results {
      #expect(result.exitCode == 0, "\(result.stderrText)")
      let line = try #require(result.stdoutText.split(separator: "\n").last)
      let count = line.split(separator: ";").last?.split(separator: " ").first.flatMap { Int($0) }
      created += try #require(count, "\(line)")
    }
    let export = try await SyncSupport.export(board, "race-app")
    #expect((export["stages"] as? [Any])?.count == 40)
    #expect(created == 40, "\(results.map(\.stdoutText))")
  }
}
