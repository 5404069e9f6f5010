import Foundation
import Testing

@testable import RoadmapCLI

/// `serve` options through the real binary: voters, admin token, rate limits, bad databases.
@Suite struct ServeOptionsTests {
  @Test func requireVoterRefusesAnonymousVotesWithAReason() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url, ["--require-voter"])
    defer { server.process.kill() }
    let anonymous = try await server.get("/hit/app.example/feature1")
    #expect(anonymous.status == 403)
    #expect(anonymous.body.contains("refuses anonymous votes"))
    #expect(anonymous.body.contains("X-Voter-ID"))
    let named = try await server.get("/hit/app.example/feature1", headers: ["X-Voter-ID": "u1"])
    #expect(named.body == #"{"value":1}"#)
    #expect(try await server.get("/get/app.example/feature1").body == #"{"value":1}"#)
    #expect(try await server.stop() == 0)
  }

  @Test func theStartSaysWhereTheVotesAre() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data")
    let server = try await ServeProcess.start(dataDirectory: data)
    defer { server.process.kill() }
    let stderr = try await server.process.waitForStderr(containing: "Votes and boards are in ")
    #expect(
      stderr.contains(
        "Votes and boards are in \(data.appendingPathComponent("votes.sqlite3").path) (SQLite)."),
      "\(stderr)")
  }

  /// Bug: `--admin-token a` (or `admin`, `secret`) started a server without a word, though a
  /// wrong guess costs only a request within the client's rate limit. A token shorter than
  /// 12 characters is now warned about at start (never repeating it); a long one is not.
  @Test func aShortAdminTokenIsWarnedAbout() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let short = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("short"), ["--admin-token", "Zq7"])
    defer { short.process.kill() }
    #expect(try await short.stop() == 0)
    let warned = short.process.stderrText
    #expect(
      warned.contains(
        "warning: the admin token has only 3 characters: anyone who can reach this server may "
          + "guess it by trying. Use a long random one (openssl rand -hex 24)."), "\(warned)")
    #expect(!warned.contains("Zq7"))
    let long = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("long"),
      ["--admin-token", "0123456789abcdef0123456789abcdef"])
    defer { long.process.kill() }
    #expect(try await long.stop() == 0)
    #expect(!long.process.stderrText.contains("warning: the admin token"))
  }

  @Test func adminTokenFromTheEnvironment() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, environment: ["ROADMAPCTL_ADMIN_TOKEN": "env-token"])
    defer { server.process.kill() }
    #expect(try await server.get("/set/app.example/k01?value=5").status == 404)
    #expect(
      try await server.get("/set/app.example/k01?value=5&token=wrong").status == 404)
    let ok = try await server.get(
      "/set/app.example/k01?value=5", headers: ["Authorization": "Bearer env-token"])
    #expect(ok.body == #"{"old_value":0,"value":5}"#)
    let v1 = try await server.get("/v1/app.example/k01/set?count=2&token=nope")
    #expect(v1.status == 401)
    #expect(try await server.stop() == 0)
  }

  /// `--data-dir ""` (a variable never set) opened the store in the working directory,
  /// and `--admin-token ""` started a server without a token, both without a word; a token
  /// ending in a carriage return could never be sent; `--host ""` failed as a name that did
  /// not resolve (exit 1). Each is now a usage error.
  @Test func anEmptyDataDirOrAnUnsendableAdminTokenIsAUsageError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let emptyDir = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", ""], workingDirectory: directory.url)
    #expect(emptyDir.exitCode == 64)
    #expect(
      emptyDir.stderrText.hasPrefix(
        "Error: --data-dir is empty: give the directory of the store, or leave it out for "
          + "./roadmapctl-data."), "\(emptyDir.stderrText)")
    let export = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", ""], workingDirectory: directory.url)
    #expect(export.exitCode == 64)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)

    let data = directory.url.appendingPathComponent("data").path
    let emptyHost = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", data, "--host", ""])
    #expect(emptyHost.exitCode == 64)
    #expect(emptyHost.stderrText.hasPrefix("Error: --host is empty: give an address to listen on"))
    let emptyToken = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", data, "--admin-token", ""])
    #expect(emptyToken.exitCode == 64)
    #expect(emptyToken.stderrText.hasPrefix("Error: --admin-token is empty:"))
    let carriageReturn = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", data],
      environment: ["ROADMAPCTL_ADMIN_TOKEN": "s3cret-token\r"])
    #expect(carriageReturn.exitCode == 64)
    #expect(
      carriageReturn.stderrText.hasPrefix(
        "Error: --admin-token (or ROADMAPCTL_ADMIN_TOKEN) starts or ends with a space"))
    #expect(!carriageReturn.stderrText.contains("s3cret"))
    #expect(!FileManager.default.fileExists(atPath: data))
  }

  @Test func writesBeyondTheLimitGet429WithRetryAfter() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--write-limit", "1"])
    defer { server.process.kill() }
    // One a minute, bursts of one: the second write within a minute is refused. A machine
    // loaded past a minute between two requests (a full CI run) refills the bucket, so each
    // write is checked against the time since the last one the server accepted.
    let clock = ContinuousClock()
    var accepted = clock.now
    var statuses: [Int] = []
    for i in 0..<3 {
      // Taken before the request: the server took its token later, so the time measured
      // from here to a next acceptance is never shorter than the server's.
      let sending = clock.now
      let status = try await server.get("/hit/app.example/path\(i)").status
      if status == 200 && i > 0 && clock.now - accepted < .seconds(55) {
        Issue.record("write \(i) accepted within a minute of the last one")
      }
      if status == 200 { accepted = sending }
      statuses.append(status)
    }
    #expect(statuses.first == 200 && statuses.contains(429), "\(statuses)")
    let sent = clock.now
    let limited = try await server.get("/update/app.example/path0?amount=-1")
    if limited.status == 200 {
      #expect(sent - accepted >= .seconds(55), "accepted within a minute of the last write")
    } else {
      #expect(limited.status == 429)
      #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
      #expect(limited.header("Access-Control-Allow-Origin") == "*")
    }
    #expect(try await server.get("/get/app.example/path0").status == 200)
    #expect(try await server.stop() == 0)
  }

  @Test func corruptDatabaseRefusesToStart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "votes.sqlite3", String(repeating: "this is not a database. ", count: 400))
    let result = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", directory.path], timeout: .seconds(30))
    #expect(result.exitCode == 1)
    #expect(result.stdoutText.isEmpty)
    #expect(result.stderrText.hasPrefix("Error: the vote store at "))
    #expect(result.stderrText.contains("damaged or not a database"))
    #expect(result.stderrText.contains("move the file away, then load a backup"))
  }

  @Test func unusableDataDirectoryIsAFailure() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.write("not-a-directory", "x")
    let result = try await Roadmapctl.run(["serve", "--port", "0", "--data-dir", file.path])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.hasPrefix("Error: cannot open the vote store at "))
  }

  @Test func badPortIsAUsageError() async throws {
    let result = try await Roadmapctl.run(["serve", "--port", "70000"])
    #expect(result.exitCode == 64)
    #expect(result.stderrText.hasPrefix("Error: The port must be between 0 and 65535."))
  }

  @Test func busyPollOutsideItsRangeIsAUsageError() async throws {
    for value in ["-1", "1000001"] {
      let result = try await Roadmapctl.run(["serve", "--busy-poll", value, "--port", "0"])
      #expect(result.exitCode == 64)
      #expect(
        result.stderrText.hasPrefix("Error: --busy-poll must be 0 to 1000000 microseconds."))
    }
  }

  /// Bug: nothing bounded the counters `GET /hit/ns/<random key>` made (about 150 bytes of
  /// disk each). `--create-limit` bounds them per client address, `--max-counters` in all;
  /// the admin token is not bounded, and votes on counters that exist never are.
  @Test func newCountersAreBounded() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url,
      [
        "--create-limit", "3", "--max-counters", "4", "--write-limit", "0",
        "--admin-token", "a-long-enough-admin-token",
      ])
    defer { server.process.kill() }
    for key in ["key1", "key2", "key3"] {
      #expect(try await server.get("/hit/app.example/\(key)").status == 200)
    }
    let limited = try await server.get("/hit/app.example/key4")
    #expect(limited.status == 429)
    #expect(limited.body.contains("too many new counters from this address"), "\(limited.body)")
    #expect(try await server.get("/hit/app.example/key1").body == #"{"value":2}"#)
    let admin = ["Authorization": "Bearer a-long-enough-admin-token"]
    #expect(try await server.get("/hit/app.example/key4", headers: admin).status == 200)
    // This address's allowance is spent too, so 429 is also a true answer while the guard's
    // count is low by a creation that was being written when it was read (a loaded run); it
    // reads the count again once that count is 5 s old, and then says the store is full.
    var full = try await server.get("/v1/app.example/key5/up")
    let deadline = ContinuousClock.now + .seconds(120)
    while full.status == 429, ContinuousClock.now < deadline {
      try await Task.sleep(for: .seconds(1))
      full = try await server.get("/v1/app.example/key5/up")
    }
    #expect(full.status == 507)
    #expect(full.body.hasPrefix(#"{"code":507,"message":"this server holds as many counters"#))
    _ = try await server.process.waitForStderr(containing: "refusing new counters")
    #expect(try await server.stop() == 0)
  }

  @Test func theCounterBoundsAreInTheHelpAndCheckedAtStart() async throws {
    let help = await InProcess.run(["serve", "--help"])
    let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("--create-limit <per-day>"), "\(text)")
    #expect(text.contains("--max-counters <count>"), "\(text)")
    for (option, message) in [
      ("--create-limit", "Error: --create-limit must be 0 or more counters a day."),
      ("--max-counters", "Error: --max-counters must be 0 or more."),
    ] {
      let result = try await Roadmapctl.run(["serve", option, "-1", "--port", "0"])
      #expect(result.exitCode == 64)
      #expect(result.stderrText.hasPrefix(message), "\(result.stderrText)")
    }
  }

  /// Bug: `--host [::1]` failed with "cannot listen on [[::1]]:PORT: cannot resolve [::1]".
  /// An IPv6 literal in brackets, as a URL writes it, is that address.
  @Test func aBracketedIPv6HostIsListenedOn() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("a"), ["--host", "[::1]"])
    defer { server.process.kill() }
    #expect(server.process.stdoutText.contains("Serving on http://[::1]:\(server.port)\n"))
    // The same port again: refused, with the address written once in brackets.
    let second = try await Roadmapctl.run(
      [
        "serve", "--host", "[::1]", "--port", String(server.port), "--data-dir",
        directory.path + "/b",
      ])
    #expect(second.exitCode == 1)
    #expect(
      second.stderrText.hasPrefix("Error: cannot listen on [::1]:\(server.port): the port is"),
      "\(second.stderrText)")
    #expect(try await server.stop() == 0)
    #expect(ServeCommand.listenAddress("[::1]") == "::1")
    #expect(ServeCommand.listenAddress("::1") == "::1")
    #expect(ServeCommand.listenAddress("127.0.0.1") == "127.0.0.1")
    #expect(ServeCommand.listenAddress("[]") == "[]")
    #expect(
      ServeCommand.describeListenFailure(CocoaError(.featureUnsupported), host: "[::1]", port: 80)
        .hasPrefix("cannot listen on [::1]:80: "))
  }

  @Test func portInUseIsAFailure() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let first = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("a"))
    defer { first.process.kill() }
    let second = try await Roadmapctl.run(
      ["serve", "--port", String(first.port), "--data-dir", directory.path + "/b"])
    #expect(second.exitCode == 1)
    // Said once, with what to do (issue 8, item 8).
    #expect(
      second.stderrText
        == "Error: cannot listen on 127.0.0.1:\(first.port): the port is already in use (is "
        + "another 'roadmapctl serve' running?). Stop it, or choose another port with --port (0 "
        + "picks a free one).\n")
    // And it leaves no store behind in the data directory it would have made.
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/b"))
    #expect(try await first.stop() == 0)
  }

  @Test func sigintAlsoStopsGracefully() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    server.process.signal(SIGINT)
    #expect(try await server.process.waitForExit() == 0)
  }
}

/// `--data-dir` beside `--postgres` (or `ROADMAPCTL_POSTGRES_URL`): the votes are in
/// PostgreSQL, and the command says so instead of leaving the directory silently unused.
@Suite struct DataDirectoryBesidePostgresTests {
  @Test func aGivenDataDirectoryIsNamedAsUnused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let port = try await SyncSupport.closedPort(in: directory)
    let url = "postgresql://roadmapctl@127.0.0.1:\(port)/votes?connect_timeout=5"
    let data = directory.url.appendingPathComponent("data").path
    let warning =
      "warning: --data-dir \(data) is not used: the votes are in PostgreSQL "
      + "(--postgres or ROADMAPCTL_POSTGRES_URL).\n"
    for arguments in [
      ["votes", "export", "--data-dir", data, "--postgres", url],
      ["votes", "export", "--postgres", url, "--data-dir", data],
    ] {
      let both = try await Roadmapctl.run(arguments)
      #expect(both.exitCode == 1)
      #expect(both.stderrText.hasPrefix(warning), "\(both.stderrText)")
      #expect(both.stderrText.contains("cannot open the PostgreSQL vote store"))
      #expect(!FileManager.default.fileExists(atPath: data))
    }
    let fromEnvironment = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", data],
      environment: ["ROADMAPCTL_POSTGRES_URL": url])
    #expect(fromEnvironment.stderrText.hasPrefix(warning), "\(fromEnvironment.stderrText)")

    let alone = try await Roadmapctl.run(["votes", "export", "--postgres", url])
    #expect(alone.exitCode == 1)
    #expect(alone.stderrText.hasPrefix("Error: cannot open the PostgreSQL vote store"))
    #expect(!alone.stderrText.contains("--data-dir"))
  }
}

/// `--cors-origin` takes `*`, `null` or one origin: a list, a path or a control character would
/// make every browser refuse every cross-origin answer without a word.
@Suite struct CORSOriginOptionTests {
  @Test(arguments: [
    "https://a.example, https://b.example", "https://a.example https://b.example",
    "https://example.com/", "example.com", "", "https://exa\rmple.com", "https://",
  ])
  func aValueNoBrowserTakesIsAUsageError(_ origin: String) async throws {
    let result = try await Roadmapctl.run(["serve", "--port", "0", "--cors-origin", origin])
    #expect(result.exitCode == 64, "\(result.stderrText)")
    #expect(
      result.stderrText.hasPrefix(
        "Error: --cors-origin takes one origin, such as https://example.com, or *"),
      "\(result.stderrText)")
    #expect(!result.stderrText.contains("\r"))
  }

  @Test(arguments: [
    "*", "null", "https://example.com", "http://127.0.0.1:8080", "app://x", "https://[::1]:8443",
    "http://example.com:443", "https://xn--bcher-kva.example",
  ])
  func anOriginIsTaken(_ origin: String) {
    #expect(ServeCommand.originProblem(origin) == nil)
  }

  /// An origin a browser sends in another form (it lowercases the scheme and a web host, drops
  /// a user name, the default port and a port's leading zeros) never matches, byte for byte,
  /// the one it sends: refused, with the form to write.
  @Test(arguments: [
    ("https://EXAMPLE.com", "https://example.com"),
    ("HTTPS://example.com", "https://example.com"),
    ("https://example.com:443", "https://example.com"),
    ("http://example.com:80", "http://example.com"),
    ("https://example.com:", "https://example.com"),
    ("https://user@example.com", "https://example.com"),
    ("https://user:secret@Example.com:443", "https://example.com"),
    ("http://localhost:08080", "http://localhost:8080"),
    ("https://[::ABCD]", "https://[::abcd]"),
  ])
  func anOriginBrowsersSendOtherwiseIsAUsageError(_ origin: String, _ browsers: String)
    async throws
  {
    // A data directory of its own: a server that wrongly started must not share one.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", directory.url.path, "--cors-origin", origin],
      timeout: .seconds(20))
    #expect(result.exitCode == 64, "\(result.stderrText)")
    #expect(
      result.stderrText.hasPrefix(
        "Error: --cors-origin takes one origin, such as https://example.com, or *: browsers send "
          + "it as \(browsers) and would refuse every answer to '\(origin)'; write it as "
          + "\(browsers)."), "\(result.stderrText)")
  }

  @Test(arguments: [
    "https://example.com:99999", "https://example.com:https", "https://example.com:80:90",
    "https://user@", "https://[::1", "https://[::1]x", "https://[]",
  ])
  func anAuthorityThatIsNoHostAndPortIsRefused(_ origin: String) {
    #expect(ServeCommand.originProblem(origin)?.contains("' is not one (a host") == true)
  }

  @Test func aListIsNamedAsOne() {
    #expect(
      ServeCommand.originProblem("https://a.example,https://b.example")?.contains(
        "browsers refuse a list") == true)
  }
}
