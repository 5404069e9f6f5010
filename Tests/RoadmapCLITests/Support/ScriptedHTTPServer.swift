import Foundation

/// A python3 HTTP server on 127.0.0.1 (port 0) whose answers a test writes as the body of a
/// `BaseHTTPRequestHandler` subclass named `Handler`: for peers that misbehave in one exact way
/// (a 429 with a date, a cursor handed out twice, an answer after a delay).
///
/// The script has `email.utils`, `http.server`, `json`, `sys`, `threading` and `time`
/// imported, and `record(path)`, which appends `path` to ``log`` and answers how many requests
/// are recorded so far; `log_message` is already quiet.
///
///     let server = try await ScriptedHTTPServer.start(in: directory, handler: """
///       def do_GET(self):
///           record(self.path)
///           self.send_response(204)
///           self.end_headers()
///       """)
///     defer { server.stop() }
struct ScriptedHTTPServer {
  let process: ChildProcess
  /// `http://127.0.0.1:PORT`.
  let url: String
  /// One line per request that the handler passed to `record`.
  let log: URL

  /// Starts the server with `handler` (Python, the members of class `Handler`, indented by
  /// 4 spaces in the script) in `directory`, under `name`.
  static func start(
    in directory: TemporaryDirectory, name: String = "scripted.py", handler: String
  ) async throws -> ScriptedHTTPServer {
    let log = directory.url.appendingPathComponent("\(name).requests.log")
    let members = handler.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "    " + $0 }
      .joined(separator: "\n")
    let script = try directory.write(
      name,
      """
      import email.utils, http.server, json, sys, threading, time

      lock = threading.Lock()

      def record(path):
          with lock:
              with open(sys.argv[1], "a") as log:
                  log.write(path + "\\n")
              with open(sys.argv[1]) as log:
                  return sum(1 for _ in log)

      class Handler(http.server.BaseHTTPRequestHandler):
          def log_message(self, *args):
              pass

      \(members)

      server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
      print(server.server_address[1], flush=True)
      server.serve_forever()
      """)
    let process = try ChildProcess.start("/usr/bin/env", ["python3", script.path, log.path])
    guard let line = try await process.readLine(timeout: .seconds(60)), let port = Int(line) else {
      process.kill()
      throw TestHTTPServer.ServerDidNotStart(stderr: process.stderrText)
    }
    return ScriptedHTTPServer(process: process, url: "http://127.0.0.1:\(port)", log: log)
  }

  /// How many requests were recorded.
  func recordedRequests() throws -> Int {
    guard FileManager.default.fileExists(atPath: log.path) else { return 0 }
    return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count
  }

  /// Stops the server.
  func stop() { process.kill() }
}
