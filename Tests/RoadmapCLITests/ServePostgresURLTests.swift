import Foundation
import TestProcess
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What `--postgres` / `ROADMAPCTL_POSTGRES_URL` accept, what their errors show, and how a
/// `serve` that is still connecting stops, with the real binary.
@Suite struct ServePostgresURLTests {
  /// An empty URL is a usage error, never the SQLite store in ./roadmapctl-data.
  @Test(arguments: [
    (["serve", "--port", "0", "--postgres", ""], [String: String]()),
    (["serve", "--port", "0", "--postgres="], [:]),
    (["serve", "--port", "0"], ["ROADMAPCTL_POSTGRES_URL": ""]),
    (["votes", "export", "--postgres", ""], [:]),
    (["votes", "import", "votes.json"], ["ROADMAPCTL_POSTGRES_URL": ""]),
    (["backup", "--postgres", " "], [:]),
  ])
  func anEmptyURLIsAUsageError(arguments: [String], environment: [String: String]) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Data(#"{"version":1,"counters":[]}"#.utf8).write(
      to: directory.url.appendingPathComponent("votes.json"))
    let result = try await Roadmapctl.run(
      arguments, environment: environment, workingDirectory: directory.url)
    #expect(result.exitCode == 64, "\(result.stderrText)")
    #expect(
      result.stderrText.contains("--postgres (or ROADMAPCTL_POSTGRES_URL) is empty"),
      "\(result.stderrText)")
    #expect(
      !FileManager.default.fileExists(
        atPath: directory.url.appendingPathComponent("roadmapctl-data").path))
  }

  /// Only postgresql:// and postgres:// URLs and key=value strings; the refusal repeats no
  /// password.
  @Test(arguments: [
    "http://user:secretpw@db.example/votes", "votes3", "mysql://root:secretpw@localhost/x",
    "http://user:secretpw@db.example/votes?sslmode=require",
  ])
  func anythingElseIsRefusedWithoutEchoingIt(url: String) async throws {
    let result = try await Roadmapctl.run(["serve", "--port", "0", "--postgres", url])
    #expect(result.exitCode == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains("--postgres (or ROADMAPCTL_POSTGRES_URL)"))
    #expect(!result.stderrText.contains("secretpw"), "\(result.stderrText)")
    #expect(!result.stderrText.contains(url), "\(result.stderrText)")
  }

  /// libpq quotes a badly percent-encoded password in its error; the store never passes it on.
  @Test func libpqErrorsShowNoPassword() async throws {
    let result = try await Roadmapctl.run(
      ["votes", "export", "--postgres", "postgresql://user:se%ZZcretpw@127.0.0.1:1/votes"])
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(!result.stderrText.contains("cretpw"), "\(result.stderrText)")
  }

  /// SIGTERM stops a serve that is still connecting (here to a server that never answers).
  /// connect_timeout=600 keeps it connecting far longer than a loaded machine can delay this
  /// test's steps (with 0, the store's own 5 s bound sometimes passed before the signal was
  /// sent); the bound itself is the next test's.
  @Test func sigtermStopsAServeThatIsStillConnecting() async throws {
    let silent = try SilentPostgres()
    defer { silent.stop() }
    let child = try Roadmapctl.start([
      "serve", "--port", "0", "--postgres",
      "host=\(silent.directory) port=5432 user=nobody dbname=votes connect_timeout=600",
    ])
    defer { child.kill() }
    // Once its handler is installed: on a loaded machine a fixed pause was not always enough.
    try await child.waitUntilCatching(SIGTERM)
    child.signal(SIGTERM)
    let status = try await child.waitForExit(timeout: .seconds(60))
    #expect(status == 0, "\(child.stderrText)")
    #expect(child.stderrText.contains("Received signal 15 while starting"), "\(child.stderrText)")
  }

  /// The start-up connect is bounded even with connect_timeout=0, and the error names the
  /// bound that applied.
  @Test(arguments: [
    ("connect_timeout=0", "within 5 s (the store's bound, as connect_timeout=0 sets none)"),
    ("connect_timeout=2", "within 2 s (connect_timeout=2)"),
  ])
  func theStartUpConnectIsBoundedAndSaysByWhat(setting: String, expected: String) async throws {
    let silent = try SilentPostgres()
    defer { silent.stop() }
    let result = try await Roadmapctl.run(
      [
        "serve", "--port", "0", "--postgres",
        "host=\(silent.directory) port=5432 user=nobody dbname=votes \(setting)",
      ], timeout: .seconds(120))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains(expected), "\(result.stderrText)")
  }
}
