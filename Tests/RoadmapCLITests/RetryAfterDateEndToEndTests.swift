import Foundation
import Testing

/// `Retry-After` given as an HTTP date (RFC 9110), as a proxy or another server may send it
/// with a 429: the sync commands wait until that date (at most 60 s at a time), as they do for
/// a number of seconds.
@Suite struct RetryAfterDateEndToEndTests {
  /// A server that answers every request `429` with `Retry-After` an HTTP date `ahead`
  /// seconds after the answer, and records each.
  static func refusingServer(in directory: TemporaryDirectory, ahead: Int) async throws
    -> ScriptedHTTPServer
  {
    try await ScriptedHTTPServer.start(
      in: directory, name: "refusing.py",
      handler: """
        def do_GET(self):
            record(self.path)
            body = b'{"error": "rate limited"}'
            self.send_response(429)
            self.send_header(
                "Retry-After", email.utils.formatdate(time.time() + \(ahead), usegmt=True))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        """)
  }

  /// Bug: `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT` (an HTTP date) read as no field, so a
  /// board call refused with 429 was sent again every second: with 5 s of waiting allowed
  /// (`ROADMAPCTL_RATE_LIMIT_WAIT=5`) and a date 10 s ahead, `publish` sent 6 requests. The
  /// date is now waited for: the first wait uses up the 5 s, and a second request ends it.
  @Test func aRetryAfterDateIsWaitedFor() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await Self.refusingServer(in: directory, ahead: 10)
    defer { server.stop() }
    let result = try await Roadmapctl.run(
      ["publish", "--server", server.url, "--project", "limited.app", "--out", "published.json"],
      environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "5"], workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("429"), "\(result.stderrText)")
    let requests = try server.recordedRequests()
    // 2 (3 when a loaded machine takes over 5 s between the answer and reading it); 6 before.
    #expect(requests < 6, "\(requests) requests")
  }
}
