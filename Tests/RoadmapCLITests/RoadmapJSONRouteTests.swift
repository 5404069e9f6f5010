import Foundation
import TestProcess
import Testing

/// `GET /roadmap/:project.json` on a real `roadmapctl serve`, after a migration.
@Suite struct RoadmapJSONRouteTests {
  static let roadmap = """
    [
      {"id": "1", "title": "Widgets", "status": "planned",
       "localizedTitle": [{"language": "de", "value": "Widgets!"}],
       "localizedStatus": [{"language": "de", "value": "Geplant"}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": true, "votes": 7},
      {"id": "3", "title": "Maps", "status": "?", "description": "Pins", "url": "https://x.example"}
    ]
    """

  @Test func theBoardAsTheRoadmapPackageReadsItWithETags() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let migrated = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "demo-app",
        "--key", SyncSupport.token,
      ], workingDirectory: directory.url)
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")
    try await SyncSupport.hit(board, "demo-app", "feature1", times: 2)

    let first = try await board.get("/roadmap/demo-app.json")
    #expect(first.status == 200)
    #expect(first.header("Content-Type") == "application/json; charset=utf-8")
    #expect(first.header("Cache-Control") == "public, max-age=60")
    #expect(first.header("Access-Control-Allow-Origin") == "*")
    let tag = try #require(first.header("ETag"))
    let features = try JSONDecoder().decode([UpstreamFeature].self, from: Data(first.body.utf8))
    #expect(
      features == [
        UpstreamFeature(
          id: "1", title: "Widgets", status: "planned", votes: 2,
          localizedTitle: [.init(language: "de", value: "Widgets!")],
          localizedStatus: [.init(language: "de", value: "Geplant")]),
        UpstreamFeature(id: "2", title: "Sync", status: "Available ", isFinished: true, votes: 7),
        UpstreamFeature(id: "3", title: "Maps", status: "?", description: "Pins", votes: 0),
      ])
    #expect(first.body.contains(#""url":"https://x.example""#))

    let cached = try await board.get("/roadmap/demo-app.json", headers: ["If-None-Match": tag])
    #expect(cached.status == 304)
    #expect(cached.body.isEmpty)
    #expect(cached.header("ETag") == tag)
    let listed = try await board.get(
      "/roadmap/demo-app.json", headers: ["If-None-Match": "\"other\", W/\(tag)"])
    #expect(listed.status == 304)

    try await SyncSupport.hit(board, "demo-app", "feature3", times: 1)
    let changed = try await board.get("/roadmap/demo-app.json", headers: ["If-None-Match": tag])
    #expect(changed.status == 200)
    #expect(changed.header("ETag") != tag)
    let after = try JSONDecoder().decode([UpstreamFeature].self, from: Data(changed.body.utf8))
    #expect(after.map(\.votes) == [2, 7, 1])

    let head = try await board.get("/roadmap/demo-app.json", method: "HEAD")
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
  }

  @Test func unknownProjectsAndBadNamesAreRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let missing = try await board.get("/roadmap/nobody-here.json")
    #expect(missing.status == 404)
    #expect(missing.body == #"{"error":"no project nobody-here on this server"}"#)
    let bad = try await board.get("/roadmap/a%20b.json")
    #expect(bad.status == 400 || bad.status == 404)
    let short = try await board.get("/roadmap/ab.json")
    #expect(short.status == 400)
    let post = try await board.get("/roadmap/demo-app.json", method: "POST")
    #expect(post.status == 405)
    #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
  }
}
