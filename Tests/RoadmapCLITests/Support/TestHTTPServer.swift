import Foundation

/// A real HTTP server on 127.0.0.1 (python3's http.server on port 0) for URL inputs.
///
///     let server = try await TestHTTPServer.start()
///     defer { server.stop() }
///     let url = server.url("/good.json")     // also /broken.json, /missing.json (404),
///                                            // /proxied.json (the good file with 203), /page.html,
///                                            // /sneaky.json (HTML as JSON), /good-as-html.json,
///                                            // /endless.json (a body without end),
///                                            // /slow.json (no answer for 300 s)
struct TestHTTPServer: Sendable {
  let process: ChildProcess
  let directory: TemporaryDirectory
  let port: Int

  static let script = """
    import http.server, sys, time

    ROUTES = {
        "/good.json": (200, "application/json", open(sys.argv[1], "rb").read()),
        "/broken.json": (200, "application/json", open(sys.argv[2], "rb").read()),
        "/missing.json": (404, "application/json", b'{"error":"not found"}'),
        "/proxied.json": (203, "application/json", open(sys.argv[1], "rb").read()),
        "/page.html": (200, "text/html; charset=utf-8",
                       b"<!DOCTYPE html><html><body>[roadmap]</body></html>"),
        "/sneaky.json": (200, "application/json", b"\\n  <html><body>oops</body></html>"),
        "/good-as-html.json": (200, "text/html; charset=utf-8", open(sys.argv[1], "rb").read()),
    }

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/endless.json":
                return self.endless()
            if self.path == "/slow.json":
                time.sleep(300)
            status, kind, body = ROUTES.get(self.path, (404, "text/plain", b"no route"))
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def endless(self):
            # A body without end (no Content-Length; HTTP/1.0 closes the connection), about
            # 16 MB/s: loopback speed would keep swift-corelibs-foundation's one URLSession
            # queue busy for every session of the test process.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            block = b"[" + b" " * 32767
            try:
                while True:
                    self.wfile.write(block)
                    block = b" " * 32768
                    time.sleep(0.002)
            except OSError:
                pass

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  static func start(good: String = Fixtures.good, broken: String = Fixtures.numericID)
    async throws -> TestHTTPServer
  {
    let directory = try TemporaryDirectory()
    let script = try directory.write("server.py", script)
    let goodFile = try directory.write("good.json", good)
    let brokenFile = try directory.write("broken.json", broken)
    let process = try ChildProcess.start(
      "/usr/bin/env", ["python3", script.path, goodFile.path, brokenFile.path])
    guard let line = try await process.readLine(timeout: .seconds(30)), let port = Int(line) else {
      process.kill()
      throw ServerDidNotStart(stderr: process.stderrText)
    }
    return TestHTTPServer(process: process, directory: directory, port: port)
  }

  struct ServerDidNotStart: Error {
    var stderr: String
  }

  func url(_ path: String) -> String {
    "http://127.0.0.1:\(port)\(path)"
  }

  func stop() {
    process.kill()
    directory.remove()
  }
}
