import Foundation
import Testing

/// `serve --postgres` and `votes --postgres` against a throwaway PostgreSQL server.
@Suite struct ServePostgresTests {
  @Test func servesAndKeepsCountsInPostgres() async throws {
    let url = try await ServePostgres.shared.newDatabase()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--postgres", url, "--write-limit", "0"])
    defer { server.process.kill() }
    #expect(try await server.get("/healthz").status == 200)
    let connections = 16
    let port = server.port
    _ = try await WireClient.concurrently(connections) { _ in
      let connection = try WireConnection(port: port)
      for _ in 0..<25 {
        let answer = try connection.request("/hit/app.example/pg1")
        guard answer.status == 200 else { throw WireError(description: answer.body) }
      }
      return 0
    }
    #expect(try await server.get("/get/app.example/pg1").body == #"{"value":400}"#)
    _ = try await server.get("/hit/app.example/pg2", headers: ["X-Voter-ID": "v1"])
    _ = try await server.get("/hit/app.example/pg2", headers: ["X-Voter-ID": "v1"])
    #expect(try await server.stop() == 0)
    #expect(
      !FileManager.default.fileExists(
        atPath: directory.url.appendingPathComponent("votes.sqlite3").path))

    // A second instance on the same database sees the counts.
    let second = try await ServeProcess.start(
      dataDirectory: directory.url, environment: ["ROADMAPCTL_POSTGRES_URL": url])
    defer { second.process.kill() }
    // Inherited from the environment, PostgreSQL is named at the start (never the URL).
    let said = try await second.process.waitForStderr(containing: "Votes and boards are in ")
    #expect(
      said.contains(
        "Votes and boards are in PostgreSQL (--postgres or ROADMAPCTL_POSTGRES_URL)."))
    #expect(!said.contains(url))
    #expect(
      try await second.get("/counts/app.example?keys=pg1,pg2").body
        == #"{"counts":{"pg1":400,"pg2":1}}"#)
    #expect(try await second.stop() == 0)

    let export = try await Roadmapctl.run(["votes", "export", "--postgres", url])
    #expect(export.exitCode == 0, "\(export.stderrText)")
    // The hashes need PostgreSQL's voter key: written as the SQLite store's key file first.
    let target = directory.url.appendingPathComponent("sqlite")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    let secret = try await ServePostgres.shared.query(url, "SELECT secret FROM voter_key")
    let keyFile = target.appendingPathComponent("votes.sqlite3-voter-key")
    try Data("roadmapbridge-voter-key-v1 \(secret)".utf8).write(to: keyFile)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    let imported = try await Roadmapctl.run(
      ["votes", "import", "-", "--data-dir", target.path], stdin: export.stdout)
    #expect(imported.stderrText == "Imported 2 counters.\n")
  }

  @Test func unreachablePostgresRefusesToStart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await Roadmapctl.run(
      ["serve", "--port", "0", "--postgres", "host=\(directory.path) port=1 user=nobody dbname=x"],
      timeout: .seconds(30))
    #expect(result.exitCode == 1)
    #expect(result.stderrText.hasPrefix("Error: cannot open the PostgreSQL vote store"))
  }
}
