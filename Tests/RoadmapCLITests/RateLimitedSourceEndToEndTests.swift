import Foundation
import Testing

/// A counting API that refuses every read with 429: the sync commands' reads of it share one
/// bound on their waiting, so a job fails instead of waiting on it for days.
@Suite struct RateLimitedSourceEndToEndTests {
  /// A countapi server that answers every request `429` with `Retry-After: 1`, and records
  /// each.
  static func refusingCounter(in directory: TemporaryDirectory) async throws
    -> ScriptedHTTPServer
  {
    try await ScriptedHTTPServer.start(
      in: directory, name: "refusing.py",
      handler: """
        def do_GET(self):
            record(self.path)
            body = b'{"error": "rate limited"}'
            self.send_response(429)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        """)
  }

  /// Bug: each read of a counting API waited up to `ROADMAPCTL_RATE_LIMIT_WAIT` (10 minutes
  /// by default) for a source that answered 429, and so did each of the voter's 3 tries of it,
  /// and the probe for `/counts` before them: 16 reads at a time, a source that refused every
  /// read held `votes pull` of 300 features about 10 hours (5,000: a week). The reads now
  /// share that bound, counted from the source's last answer that
  /// was not a 429: once the source has refused everything for that long, the reads still to
  /// come fail at their first 429. Each read sent its request 3 × (1 + 5) times before (720
  /// for 40 features); now about 3 times once the bound is used up.
  @Test func aSourceThatRefusesEveryReadFailsWithinOneBound() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let features = (1...40).map { #"{"id": "\#($0)", "title": "F"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    let counter = try await Self.refusingCounter(in: directory)
    defer { counter.stop() }
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let result = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", counter.url, "--dialect", "countapi",
        "--namespace", "refusing.app", "--server", SyncSupport.url(board), "--project",
        "refusing.app", "--key", SyncSupport.token, "--dry-run",
      ], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "5"], workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(
      result.stderrText.contains("40 of 40 counts could not be read"), "\(result.stderrText)")
    #expect(result.stderrText.contains("cannot read the count of feature 40: rate limited"))
    let requests = try counter.recordedRequests()
    // 40 reads × 3 tries once the bound is used up, and what the first ones sent while it
    // lasted (5 s at one request a second each); 720 and more before.
    #expect(requests < 360, "\(requests) requests")
  }

  /// Bug: while the reads waited for a source's rate limit (minutes, at the default bound)
  /// nothing was said: the progress line moves only as reads finish. Standard error now says
  /// when the reads start waiting, with the bound, and when they stop.
  @Test func theWaitingForARateLimitIsSaid() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id": "1", "title": "F"}]"#)
    let counter = try await Self.refusingCounter(in: directory)
    defer { counter.stop() }
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let result = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", counter.url, "--dialect", "countapi",
        "--namespace", "refusing.app", "--server", SyncSupport.url(board), "--project",
        "refusing.app", "--key", SyncSupport.token, "--dry-run",
      ], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "2"], workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    let lines = result.stderrText.split(separator: "\n").map(String.init)
    let waiting =
      "\(counter.url) answers 429 (rate limited): its reads wait as it asks, for at most 2 s "
      + "in a row without an answer (ROADMAPCTL_RATE_LIMIT_WAIT=2)"
    let givingUp =
      "\(counter.url) has answered nothing but 429 for 2 s (ROADMAPCTL_RATE_LIMIT_WAIT=2): the "
      + "reads it refuses now fail"
    #expect(lines.filter { $0 == waiting }.count == 1, "\(result.stderrText)")
    #expect(lines.filter { $0 == givingUp }.count == 1, "\(result.stderrText)")
  }
}
