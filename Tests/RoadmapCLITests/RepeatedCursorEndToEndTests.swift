import Foundation
import Testing

/// A board server whose features' pages point back to a cursor they handed out before (one
/// that ignores `cursor=`, or a cache in front of it): `publish` fails and names the cursor
/// instead of writing a roadmap of the pages read up to the repeat.
@Suite struct RepeatedCursorEndToEndTests {
  /// Bug: `publish` read the features through the listing that ends quietly at a repeated
  /// cursor, so it wrote `published.json` with what came before the repeat (here one feature
  /// of a board that has more) and exited 0. Now it exits 1, names the cursor and writes no
  /// file.
  @Test func aRepeatedCursorFailsPublish() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ScriptedHTTPServer.start(
      in: directory, name: "looping.py",
      handler: #"""
        BOARD = {"project": "looping.app", "settings": {},
                 "board": {"slug": "roadmap", "name": "Roadmap", "isPublic": True,
                           "votingEnabled": True},
                 "stages": [{"board": "roadmap", "id": 1, "isArchived": False,
                             "isFinished": False, "name": "planned", "position": 0,
                             "votingEnabled": True}],
                 "tags": [], "boards": []}
        FEATURE = {"board": "roadmap", "comments": 0, "createdAt": "2026-12-05T14:59:21Z",
                   "description": "d", "id": 1, "ref": "1", "stage": 1, "tags": [],
                   "title": "First", "voted": False, "votes": 3}

        def do_GET(self):
            count = record(self.path)
            path = self.path.split("?")[0]
            if count > 40:
                status, body = 500, {"error": "enough"}
            elif path.endswith("/board"):
                status, body = 200, self.BOARD
            elif path.endswith("/features"):
                status, body = 200, {"features": [self.FEATURE], "next": "again"}
            else:
                status, body = 404, {"error": "no route"}
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        """#)
    defer { server.stop() }
    let result = try await Roadmapctl.run(
      [
        "publish", "--server", server.url, "--project", "looping.app", "--out",
        "published.json",
      ],
      workingDirectory: directory.url, timeout: .seconds(600))
    #expect(result.exitCode == 1, "\(result.stdoutText)\n\(result.stderrText)")
    #expect(result.stderrText.contains("'again'"), "\(result.stderrText)")
    #expect(result.stderrText.contains("would never end"), "\(result.stderrText)")
    let written = directory.url.appendingPathComponent("published.json")
    #expect(!FileManager.default.fileExists(atPath: written.path))
  }
}
