import Foundation
import Testing

/// `Retry-After` given as an HTTP date (RFC 9110), as a proxy or another server may send it
/// with a 429: the sync commands wait until that date (at most 60 s at a time), as they do for
/// a number of seconds.
@Suite struct RetryAfterDateEndToEndTests {
  /// A server (python3) that answers every request `429` with `Retry-After` an HTTP date
  /// `ahead` seconds after the answer, and appends a line to `requests.log` in `directory`
  /// for each.
  static func refusingServer(in directory: TemporaryDirectory, ahead: Int) async throws
    -> (process: ChildProcess, url: String, log: URL)
  {
    let log = directory.url.appendingPathComponent("requests.log")
    let script = try directory.write(
      "refusing.py",
      """
      import email.utils, http.server, sys, threading, time

      lock = threading.Lock()

      class Handler(http.server.BaseHTTPRequestHandler):
          def do_GET(self):
              with lock:
                  with open(sys.argv[1], "a") as log:
                      log.write(self.path + "\\n")
              body = b'{"error": "rate limited"}'
              self.send_response(429)
              self.send_header(
                  "Retry-After", email.utils.formatdate(time.time() + \(ahead), usegmt=True))
              self.send_header("Content-Type", "application/json")
              self.send_header("Content-Length", str(len(body)))
              self.end_headers()
              self.wfile.write(body)

          def log_message(self, *args):
              pass

      server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
      print(server.server_address[1], flush=True)
      server.serve_forever()
      """)
    let process = try ChildProcess.start("/usr/bin/env", ["python3", script.path, log.path])
    guard let line = try await process.readLine(timeout: .seconds(60)), let port = Int(line) else {
      process.kill()
      throw TestHTTPServer.ServerDidNotStart(stderr: process.stderrText)
    }
    return (process, "http://127.0.0.1:\(port)", log)
  }

  /// Bug: `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT` (an HTTP date) read as no field, so a
  /// board call refused with 429 was sent again every second: with 5 s of waiting allowed
  /// (`ROADMAPCTL_RATE_LIMIT_WAIT=5`) and a date 10 s ahead, `publish` sent 6 requests. The
  /// date is now waited for: the first wait uses up the 5 s, and a second request ends it.
  @Test func aRetryAfterDateIsWaitedFor() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await Self.refusingServer(in: directory, ahead: 10)
    defer { server.process.kill() }
    let result = try await Roadmapctl.run(
      ["publish", "--server", server.url, "--project", "limited.app", "--out", "published.json"],
      environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "5"], workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("429"), "\(result.stderrText)")
    let requests = try String(contentsOf: server.log, encoding: .utf8)
      .split(separator: "\n").count
    // 2 (3 when a loaded machine takes over 5 s between the answer and reading it); 6 before.
    #expect(requests < 6, "\(requests) requests")
  }
}
