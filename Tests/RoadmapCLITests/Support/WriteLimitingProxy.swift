import Foundation

/// A reverse proxy (python3's http.server on 127.0.0.1, port 0) in front of a `roadmapctl
/// serve` that limits every write it passes on, admin calls included, with a token bucket of
/// `burst` writes refilled at `perSecond`; past it, the 429 `serve` itself answers (the board
/// API's `{"error":{"code":"rate_limited",…}}`, the countapi routes' `{"error":…}`, with
/// `Retry-After`).
///
/// `serve` no longer limits calls that carry its admin token, so the tests of how the sync
/// commands meet a 429 part way put this in front of it: a proxy or an older server that
/// limits them all. A write is any method but GET and HEAD, and a GET of `/set/…`.
struct WriteLimitingProxy: Sendable {
  let process: ChildProcess
  let directory: TemporaryDirectory
  let port: Int

  /// `http://127.0.0.1:PORT`, to use in place of the server's.
  var url: String { "http://127.0.0.1:\(port)" }

  static let script = """
    import http.client, http.server, json, math, sys, threading, time

    BACKEND = int(sys.argv[1])
    BURST = float(sys.argv[2])
    PER_SECOND = float(sys.argv[3])
    lock = threading.Lock()
    bucket = {"tokens": BURST, "at": time.monotonic()}

    def take():
        with lock:
            now = time.monotonic()
            tokens = min(BURST, bucket["tokens"] + (now - bucket["at"]) * PER_SECOND)
            bucket["at"] = now
            if tokens >= 1:
                bucket["tokens"] = tokens - 1
                return None
            bucket["tokens"] = tokens
            return max(1, math.ceil((1 - tokens) / PER_SECOND))

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            write = self.command not in ("GET", "HEAD") or self.path.startswith("/set/")
            retry = take() if write else None
            if retry is not None:
                message = "too many requests: retry in %d s" % retry
                if self.path.startswith("/api/"):
                    error = {"error": {"code": "rate_limited", "message": message}}
                else:
                    error = {"error": message}
                data = json.dumps(error).encode()
                self.send_response(429)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Retry-After", str(retry))
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True
                return
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() not in ("host", "connection", "content-length")}
            connection = http.client.HTTPConnection("127.0.0.1", BACKEND, timeout=300)
            connection.request(self.command, self.path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
            self.send_response(answer.status)
            for k, v in answer.getheaders():
                if k.lower() not in ("connection", "content-length", "transfer-encoding"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            connection.close()

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = handle_any

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  /// Starts the proxy in front of `server`.
  static func start(
    for server: ServeProcess, burst: Int, perSecond: Double
  ) async throws -> WriteLimitingProxy {
    let directory = try TemporaryDirectory()
    let script = try directory.write("proxy.py", script)
    let process = try ChildProcess.start(
      "/usr/bin/env",
      ["python3", script.path, String(server.port), String(burst), String(perSecond)])
    guard let line = try await process.readLine(timeout: .seconds(60)), let port = Int(line)
    else {
      process.kill()
      throw TestHTTPServer.ServerDidNotStart(stderr: process.stderrText)
    }
    return WriteLimitingProxy(process: process, directory: directory, port: port)
  }

  /// Stops the proxy (not the server behind it).
  func stop() {
    process.kill()
    directory.remove()
  }
}
