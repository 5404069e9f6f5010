import Foundation
import Testing

/// `roadmapctl votes pull` between two real `roadmapctl serve` processes.
@Suite struct VotesPullEndToEndTests {
  static let roadmap = """
    [{"id": "1", "title": "Widgets"}, {"id": "2", "title": "Sync", "isFinished": true},
     {"id": "3", "title": "Never voted"}]
    """

  func pull(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    try await Roadmapctl.run(
      ["votes", "pull", "roadmap.json"] + arguments, workingDirectory: directory.url,
      timeout: .seconds(120))
  }

  @Test func copiesEveryCountOnceAndARerunSetsNothing() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let new = try await SyncSupport.serve(in: directory, name: "new")
    defer {
      old.process.kill()
      new.process.kill()
    }
    try await SyncSupport.hit(old, "old-app", "feature-1", times: 3)
    try await SyncSupport.hit(old, "old-app", "feature-2", times: 2)
    let arguments = [
      "--from", SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app",
      "--key-template", "feature-{id}", "--server", SyncSupport.url(new), "--project",
      "new-app", "--key", SyncSupport.token,
    ]
    let dry = try await pull(arguments + ["--dry-run"], in: directory)
    #expect(dry.exitCode == 0, "\(dry.stderrText)")
    #expect(dry.stdoutText.contains("would set feature 1: 0 → 3"))
    #expect(try await SyncSupport.value(new, "new-app", "feature1") == nil)

    let first = try await pull(arguments, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    #expect(
      first.stdoutText
        == "set feature 1: 0 → 3\nset feature 2: 0 → 2\n2 counts set, 1 already equal.\n")
    #expect(first.stderrText.contains("reading votes from \(SyncSupport.url(old)): 3/3"))
    #expect(try await SyncSupport.value(new, "new-app", "feature1") == 3)
    #expect(try await SyncSupport.value(new, "new-app", "feature2") == 2)

    let again = try await pull(arguments + ["--format", "json"], in: directory)
    #expect(again.exitCode == 0, "\(again.stderrText)")
    #expect(
      again.stdoutText
        == "{\"dryRun\":false,\"set\":[],\"unchanged\":3,\"kept\":[],\"missing\":[]}\n")

    // Votes cast on the new server since (old app versions pointed at it), and one more at
    // the source: a rerun raises what the source gained and lowers nothing.
    try await SyncSupport.hit(new, "new-app", "feature1", times: 2)
    try await SyncSupport.hit(old, "old-app", "feature-2", times: 1)
    let third = try await pull(arguments, in: directory)
    #expect(third.exitCode == 0, "\(third.stderrText)")
    #expect(
      third.stdoutText
        == "set feature 2: 2 → 3\n"
        + "kept feature 1: 5 on the server, 3 at the source (votes cast on the server since; "
        + "a pull never lowers a count)\n"
        + "1 count set, 1 already equal, 1 kept higher.\n")
    #expect(try await SyncSupport.value(new, "new-app", "feature1") == 5)
    #expect(try await SyncSupport.value(new, "new-app", "feature2") == 3)
    let json = try await pull(arguments + ["--format", "json"], in: directory)
    #expect(
      json.stdoutText
        == "{\"dryRun\":false,\"set\":[],\"unchanged\":2,"
        + "\"kept\":[{\"id\":\"1\",\"server\":5,\"source\":3}],\"missing\":[]}\n")
  }

  /// Bug: a publication names a feature made on the board without a ref `vf-ID`, and old app
  /// versions reading it vote for `featurevf-ID` at the source. `votes pull` of that
  /// publication looked board features up by ref alone, so it `/set` the server's counter
  /// `featurevf-2`, which no board feature counts in: the board and `publish` went on without
  /// the 3 votes, `reconcile --counts` called them drift, and a rerun called them already
  /// equal. The pull now raises the feature's own count, as it does for a feature with a ref.
  @Test func aStandInOfAPublicationIsPulledIntoItsFeature() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id": "1", "title": "One", "status": "Planned"}]"#)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer {
      old.process.kill()
      board.process.kill()
    }
    let server = SyncSupport.url(board)
    let migrated = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", server, "--project", "demo-app", "--key",
        SyncSupport.token,
      ],
      workingDirectory: directory.url, timeout: .seconds(120))
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    // The owner adds a feature on the board and takes its ref away; a voter votes for it.
    let port = board.port
    for (method, path, body) in [
      ("PUT", "/features/ref/tmp", #"{"title":"Widgets"}"#),
      ("PUT", "/features/2", #"{"title":"Widgets","ref":null}"#),
    ] {
      let answer = try await WireClient.onThread {
        try WireConnection(port: port).exchange(
          method, "/api/v1/demo-app" + path,
          fields: [
            ("Authorization", "Bearer \(SyncSupport.token)"),
            ("Content-Type", "application/json"),
          ], body: Array(body.utf8))
      }
      #expect(answer.status == 200 || answer.status == 201, "\(answer.body)")
    }
    let vote = try await board.get(
      "/api/v1/demo-app/features/2/vote", method: "POST", headers: ["X-Voter-ID": "ann"])
    #expect(vote.status == 200, "\(vote.body)")
    let published = try await Roadmapctl.run(
      ["publish", "--server", server, "--project", "demo-app", "--out", "published.json"],
      workingDirectory: directory.url, timeout: .seconds(120))
    #expect(published.exitCode == 0, "\(published.stderrText)")
    // Old app versions reading the publication vote for `vf-2` at the source.
    try await SyncSupport.hit(old, "old-app", "featurevf-2", times: 3)

    let source = [
      "--from", SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app",
    ]
    let pulled = try await Roadmapctl.run(
      ["votes", "pull", "published.json"] + source + [
        "--server", server, "--project", "demo-app", "--key", SyncSupport.token,
      ], workingDirectory: directory.url, timeout: .seconds(120))
    #expect(pulled.exitCode == 0, "\(pulled.stderrText)")
    #expect(
      pulled.stdoutText == "set feature vf-2: 1 → 4\n1 count set, 1 already equal.\n",
      "\(pulled.stdoutText)")
    let export = try await SyncSupport.export(board, "demo-app")
    let features = try #require(export["features"] as? [[String: Any]])
    #expect(features.map { $0["votes"] as? Int } == [0, 4])
    #expect(try await SyncSupport.value(board, "demo-app", "featurevf-2") == nil)
    // The counting API's 3 are what the board took in: no drift of the count.
    let reconciled = try await Roadmapctl.run(
      [
        "reconcile", "published.json", "--server", server, "--project", "demo-app", "--counts",
        SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app", "--key",
        SyncSupport.token,
      ],
      workingDirectory: directory.url, timeout: .seconds(120))
    #expect(
      reconciled.stdoutText.contains(
        "feature vf-2: votes: roadmap 1, VoteFirst 4 (imported 3), "
          + "counting API 3"), "\(reconciled.stdoutText)")
  }

  /// Bug: a project whose settings name its counters otherwise (`voteKeyTemplate`
  /// `feature-{id}`, as the old app's voter did) took the pulled counts into `feature1`,
  /// read and set with `feature{id}` always: the feature migrated afterwards counts in
  /// `feature-1` and showed 0, and the 3 votes sat in a counter no feature counts in. The
  /// pull now reads and sets the counters the project's template names.
  @Test func theProjectsVoteKeyTemplateNamesTheCounters() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let new = try await SyncSupport.serve(in: directory, name: "new")
    defer {
      old.process.kill()
      new.process.kill()
    }
    let port = new.port
    let settings = try await WireClient.onThread {
      try WireConnection(port: port).exchange(
        "PUT", "/api/v1/new-app/settings",
        fields: [
          ("Authorization", "Bearer \(SyncSupport.token)"), ("Content-Type", "application/json"),
        ], body: Array(#"{"voteKeyTemplate":"feature-{id}"}"#.utf8))
    }
    #expect(settings.status == 200, "\(settings.body)")
    try await SyncSupport.hit(old, "old-app", "feature1", times: 3)
    let arguments = [
      "--from", SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app",
      "--server", SyncSupport.url(new), "--project", "new-app", "--key", SyncSupport.token,
    ]
    let first = try await pull(arguments, in: directory)
    #expect(first.exitCode == 0, "\(first.stderrText)")
    #expect(first.stdoutText == "set feature 1: 0 → 3\n1 count set, 2 already equal.\n")
    #expect(try await SyncSupport.value(new, "new-app", "feature-1") == 3)
    #expect(try await SyncSupport.value(new, "new-app", "feature1") == nil)
    let again = try await pull(arguments, in: directory)
    #expect(again.stdoutText == "0 counts set, 3 already equal.\n", "\(again.stdoutText)")

    let migrated = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(new), "--project", "new-app",
        "--key", SyncSupport.token,
      ], workingDirectory: directory.url, timeout: .seconds(120))
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    let export = try await SyncSupport.export(new, "new-app")
    let features = try #require(export["features"] as? [[String: Any]])
    #expect(features.first { $0["ref"] as? String == "1" }?["votes"] as? Int == 3)
  }

  /// A server that limits admin writes as `serve`'s default write limit did (60 a minute, a
  /// burst of 30; `serve` itself now lets its admin token through) answers a pull of more
  /// features 429 part way, through `/set` and through a board's imported votes alike; the
  /// pull waits as the server's `Retry-After` says and sets every count (it stopped at the
  /// 31st: "HTTP 429 rate_limited").
  @Test func aRateLimitedServerIsWaitedFor() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let features = 34
    let roadmap = (1...features).map { #"{"id":"\#($0)","title":"Feature \#($0)"}"# }
    try directory.write("roadmap.json", "[" + roadmap.joined(separator: ",") + "]")
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let counters = try await SyncSupport.serve(in: directory, name: "counters")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    // serve's own limit no longer holds admin calls: proxies that limit every write as its
    // default did (60 a minute, a burst of 30) stand in for a server that limits them.
    let limitedCounters = try await WriteLimitingProxy.start(
      for: counters, burst: 30, perSecond: 1)
    let limitedBoard = try await WriteLimitingProxy.start(for: board, burst: 30, perSecond: 1)
    defer {
      limitedCounters.stop()
      limitedBoard.stop()
      old.process.kill()
      counters.process.kill()
      board.process.kill()
    }
    for id in 1...features { try await SyncSupport.hit(old, "old-app", "feature\(id)", times: 2) }
    let migrated = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "board-app",
        "--key", SyncSupport.token,
      ], workingDirectory: directory.url, timeout: .seconds(120))
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    for (server, proxy, project) in [
      (counters, limitedCounters, "new-app"), (board, limitedBoard, "board-app"),
    ] {
      let result = try await pull(
        [
          "--from", SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app",
          "--server", proxy.url, "--project", project, "--key", SyncSupport.token,
        ], in: directory)
      #expect(result.exitCode == 0, "\(project): \(result.stderrText)")
      #expect(
        result.stdoutText.hasSuffix("\(features) counts set, 0 already equal.\n"),
        "\(result.stdoutText)")
      for id in [1, 31, features] {
        #expect(try await SyncSupport.value(server, project, "feature\(id)") == 2, "\(project)")
      }
    }
  }

  @Test func anUnreadableCountStopsItUnlessAllowed() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let port = try await SyncSupport.closedPort(in: directory)
    let new = try await SyncSupport.serve(in: directory, name: "new")
    defer { new.process.kill() }
    let arguments = [
      "--from", "http://127.0.0.1:\(port)", "--dialect", "countapi", "--namespace", "old-app",
      "--server", SyncSupport.url(new), "--key", SyncSupport.token,
    ]
    let stopped = try await pull(arguments, in: directory)
    #expect(stopped.exitCode == 1)
    #expect(stopped.stderrText.contains("cannot read the count of feature 1: offline"))
    #expect(stopped.stderrText.contains("cannot read the count of feature 3:"))
    #expect(
      stopped.stderrText.contains("3 of 3 counts could not be read (above); nothing was written."))
    let allowed = try await pull(arguments + ["--allow-missing-votes"], in: directory)
    #expect(allowed.exitCode == 0, "\(allowed.stderrText)")
    #expect(allowed.stdoutText == "0 counts set, 0 already equal, 3 not read.\n")
  }

  @Test func aWrongTokenIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    defer { old.process.kill() }
    try await SyncSupport.hit(old, "old-app", "feature1", times: 1)
    // `roadmapctl` names this protocol as `show --dialect` does.
    let result = try await pull(
      [
        "--from", SyncSupport.url(old), "--dialect", "roadmapctl", "--namespace", "old-app",
        "--server", SyncSupport.url(old), "--project", "new-app", "--key", "wrong",
      ], in: directory)
    #expect(result.exitCode == 1)
    #expect(
      result.stderrText.contains(
        "refused to set feature 1 to 1: HTTP 404 {\"value\":null} (is --key its admin token?)"))
    let missingKey = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect", "ours",
        "--namespace", "old-app", "--server", SyncSupport.url(old),
      ],
      environment: ["ROADMAPCTL_ADMIN_TOKEN": ""], workingDirectory: directory.url)
    #expect(missingKey.exitCode == 64)
    #expect(missingKey.stderrText.contains("--key"))
  }

  /// A proxy in front of a `roadmapctl serve` that, before it forwards the first `/set` of
  /// `KEY`, casts `VOTES` anonymous votes on it: votes cast between the pull's read and its
  /// write, deterministically. With a fourth argument, a `/set` of that key answers 503.
  static let racingProxy = """
    import http.server, sys, urllib.request
    target, key, votes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    failing = sys.argv[4] if len(sys.argv) > 4 else None
    raced = []

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def do_GET(self):
            path = self.path
            if path.startswith("/set/") and path.split("?")[0].endswith("/" + key) and not raced:
                raced.append(True)
                namespace = path.split("/")[2]
                for _ in range(votes):
                    urllib.request.urlopen(target + "/hit/" + namespace + "/" + key).read()
            if failing and path.startswith("/set/") and path.split("?")[0].endswith("/" + failing):
                self.send_response(503)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() in ("authorization", "accept", "x-voter-id")}
            request = urllib.request.Request(target + path, headers=headers)
            try:
                answer = urllib.request.urlopen(request)
                status, body, kind = answer.status, answer.read(), answer.headers.get("Content-Type")
            except urllib.error.HTTPError as error:
                status, body, kind = error.code, error.read(), error.headers.get("Content-Type")
            self.send_response(status)
            self.send_header("Content-Type", kind or "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  /// A pull from a serve holding `votes` (feature-N keys of old-app) into another through the
  /// racing proxy started with `proxyArguments`; `body` gets the pull's result and the
  /// destination.
  func pullThroughProxy(
    _ proxyArguments: [String], votes: [String: Int],
    _ body: (ProcessResult, ServeProcess) async throws -> Void
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let old = try await SyncSupport.serve(in: directory, name: "old")
    let new = try await SyncSupport.serve(in: directory, name: "new")
    let script = try directory.write("proxy.py", Self.racingProxy)
    let proxy = try ChildProcess.start(
      "/usr/bin/env", ["python3", script.path, SyncSupport.url(new)] + proxyArguments)
    defer {
      old.process.kill()
      new.process.kill()
      proxy.kill()
    }
    let port = try #require(try await proxy.readLine(timeout: .seconds(30)).flatMap { Int($0) })
    for (key, count) in votes { try await SyncSupport.hit(old, "old-app", key, times: count) }
    let result = try await pull(
      [
        "--from", SyncSupport.url(old), "--dialect", "countapi", "--namespace", "old-app",
        "--key-template", "feature-{id}", "--server", "http://127.0.0.1:\(port)", "--project",
        "new-app", "--key", SyncSupport.token,
      ], in: directory)
    try await body(result, new)
  }

  /// Bug: a pull read every counter first and then set each to the source's count, so the
  /// votes cast on the server in between were overwritten (30 votes gone, "set 0 → 26"). The
  /// set's answer says what it replaced: the pull puts those votes back and names the counter
  /// as kept.
  @Test func votesCastDuringThePullStay() async throws {
    try await pullThroughProxy(["feature1", "5"], votes: ["feature-1": 3]) { result, new in
      #expect(result.exitCode == 0, "\(result.stderrText)")
      let value = try await SyncSupport.value(new, "new-app", "feature1")
      #expect(value == 5)
      #expect(
        result.stdoutText.contains("kept feature 1: 5 on the server, 3 at the source"),
        "\(result.stdoutText)")
      #expect(!result.stdoutText.contains("set feature 1"), "\(result.stdoutText)")
    }
  }

  /// Bug: a pull that failed half-way said nothing of the counts it had already set (its lines
  /// came at the end). Now they are printed, with how many of how many were set.
  @Test func aPullThatFailsHalfWaySaysWhatItSet() async throws {
    try await pullThroughProxy(
      ["feature1", "0", "feature2"], votes: ["feature-1": 3, "feature-2": 2]
    ) { result, new in
      #expect(result.exitCode == 1)
      #expect(result.stdoutText.contains("set feature 1: 0 → 3"), "\(result.stdoutText)")
      #expect(
        result.stderrText.contains("1 count of 2 set before this failure"),
        "\(result.stderrText)")
      let value = try await SyncSupport.value(new, "new-app", "feature1")
      #expect(value == 3)
    }
  }

  /// Bug: reading the counts of a roadmap from a counting API with a rate limit failed for
  /// every count it refused (429) more than twice in a row: the reads gave up after a few
  /// seconds, and `votes pull` (or `migrate --votes-from`) of 5,000 features from a
  /// `roadmapctl serve` at its default read limit stopped after 220 s naming 84 "rate limited"
  /// counts. A refused read is now sent again after the server's `Retry-After`, as the board
  /// calls are, so the reads go at the source's pace. (Read as tally, one request per
  /// feature: a countapi source that is a `roadmapctl serve` is read in batches.)
  @Test func readsFromARateLimitedSourceGoAtItsPace() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let features = (1...50).map { #"{"id": "\#($0)", "title": "F"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    // 60 reads a minute: a burst of 30, then one a second.
    let old = try await SyncSupport.serve(in: directory, name: "old", readLimit: 60)
    let new = try await SyncSupport.serve(in: directory, name: "new")
    defer {
      old.process.kill()
      new.process.kill()
    }
    try await SyncSupport.hit(old, "old-app", "feature50", times: 2)
    let result = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect",
        "tally", "--namespace", "old-app", "--server", SyncSupport.url(new), "--project",
        "new-app", "--key", SyncSupport.token, "--dry-run",
      ], workingDirectory: directory.url, timeout: .seconds(600))
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(result.stdoutText.contains("would set feature 50: 0 → 2"), "\(result.stdoutText)")
    #expect(result.stdoutText.contains("Dry run: 1 count would set, 49 already equal."))
  }

  /// A countapi source that is another `roadmapctl serve` is read through its batch route
  /// (`/counts`, 500 keys a request) instead of one request per feature: 5,000 features drew
  /// 5,000 reads on its read limit (1,200 a minute by default, about 4 minutes of waiting).
  /// Here 50 features from a server that allows a burst of 30 reads, with no waiting allowed
  /// (`ROADMAPCTL_RATE_LIMIT_WAIT=0`): one request per feature fails, the batch does not.
  @Test func aCountapiSourceThatIsRoadmapctlIsReadInBatches() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let features = (1...50).map { #"{"id": "\#($0)", "title": "F"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    let old = try await SyncSupport.serve(in: directory, name: "old", readLimit: 60)
    let new = try await SyncSupport.serve(in: directory, name: "new")
    defer {
      old.process.kill()
      new.process.kill()
    }
    try await SyncSupport.hit(old, "old-app", "feature50", times: 2)
    let result = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect",
        "countapi", "--namespace", "old-app", "--server", SyncSupport.url(new), "--project",
        "new-app", "--key", SyncSupport.token, "--dry-run",
      ], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "0"], workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(result.stdoutText.contains("Dry run: 1 count would set, 49 already equal."))
  }
}
