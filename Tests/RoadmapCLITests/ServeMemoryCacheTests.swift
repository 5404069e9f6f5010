import Foundation
import Testing

/// `serve` answers reads from memory: on SQLite it is the file's only writer, and two
/// instances on one PostgreSQL database (where nothing is cached) read each other's votes at
/// once. Through the real binary.
@Suite struct ServeMemoryCacheTests {
  /// Bug: the lock was on the voter key file, so a key file deleted or put back (`install`
  /// makes a new file) while `serve` ran let a second `serve` start beside it: two writers,
  /// one reading stale counts, one voter counted twice.
  @Test func aReplacedKeyFileLetsNoSecondServeStart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    let key = directory.url.appendingPathComponent("votes.sqlite3-voter-key")
    let copy = try Data(contentsOf: key)
    try FileManager.default.removeItem(at: key)
    try copy.write(to: key)
    chmod(key.path, 0o600)
    let second = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", directory.path], timeout: .seconds(30))
    #expect(second.exitCode == 1)
    #expect(second.stderrText.contains("already open in another process"), "\(second.stderrText)")
    #expect(try await server.stop() == 0)
  }

  @Test func aSecondServeOnTheDataDirectoryIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    let second = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", directory.path], timeout: .seconds(30))
    #expect(second.exitCode == 1)
    #expect(second.stderrText.contains("already open in another process"), "\(second.stderrText)")
    #expect(try await server.get("/healthz").status == 200)
    #expect(try await server.stop() == 0)
  }

  /// A `votes import` into a served data directory would never reach the server's memory:
  /// it is refused, changes nothing, and works once the server has stopped.
  @Test func anImportIntoAServedDataDirectoryIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url, ["--write-limit", "0"])
    defer { server.process.kill() }
    _ = try await server.get("/hit/app.example/feature1")
    #expect(try await server.get("/get/app.example/feature1").body == #"{"value":1}"#)
    let export = try await Roadmapctl.run(["votes", "export", "--data-dir", directory.path])
    #expect(export.exitCode == 0, "a served store can still be exported: \(export.stderrText)")
    // The export is pretty-printed, a member a line.
    let edited = Array(
      export.stdoutText.replacingOccurrences(of: "\"value\" : 1\n", with: "\"value\" : 50\n")
        .utf8)
    #expect(edited != export.stdout)
    let refused = try await Roadmapctl.run(
      ["votes", "import", "-", "--replace", "--data-dir", directory.path], stdin: edited)
    #expect(refused.exitCode == 1)
    #expect(refused.stderrText.contains("being served by a running 'roadmapctl serve'"))
    #expect(try await server.get("/get/app.example/feature1").body == #"{"value":1}"#)
    #expect(try await server.stop() == 0)

    let imported = try await Roadmapctl.run(
      ["votes", "import", "-", "--replace", "--data-dir", directory.path], stdin: edited)
    #expect(imported.exitCode == 0, "\(imported.stderrText)")
    let restarted = try await ServeProcess.start(dataDirectory: directory.url)
    defer { restarted.process.kill() }
    #expect(try await restarted.get("/get/app.example/feature1").body == #"{"value":50}"#)
    #expect(try await restarted.stop() == 0)
  }

  /// Instance B answers every read with the vote instance A acknowledged just before, for
  /// every read route, on every round.
  @Test func instanceBReadsAVoteInstanceAAcknowledged() async throws {
    let url = try await ServePostgres.shared.newDatabase()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let a = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("a"),
      ["--postgres", url, "--write-limit", "0", "--read-limit", "0"])
    defer { a.process.kill() }
    let b = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("b"),
      ["--postgres", url, "--write-limit", "0", "--read-limit", "0"])
    defer { b.process.kill() }
    let portA = a.port
    let portB = b.port
    let stale = try await WireClient.onThread { () -> [String] in
      let writer = try WireConnection(port: portA)
      let reader = try WireConnection(port: portB)
      var stale: [String] = []
      for round in 1...40 {
        // B read the counter last round: whatever it kept from then would be old now.
        let hit = try writer.request("/hit/app.example/shared", headers: [:])
        let expected = #"{"value":\#(round)}"#
        guard hit.body == expected else { throw WireError(description: "A: \(hit.body)") }
        let reads: [(String, (String) -> Bool)] = [
          ("/get/app.example/shared", { $0 == expected }),
          ("/counts/app.example?keys=shared", { $0 == #"{"counts":{"shared":\#(round)}}"# }),
          ("/v1/app.example/shared", { $0.contains(#""count":\#(round),"#) }),
          ("/info/app.example/shared", { $0.contains(#""value":\#(round),"#) }),
        ]
        for (target, fresh) in reads {
          let answer = try reader.request(target)
          if !fresh(answer.body) { stale.append("round \(round) \(target): \(answer.body)") }
        }
      }
      return stale
    }
    #expect(stale.isEmpty, "\(stale.prefix(5))")
    #expect(try await a.stop() == 0)
    #expect(try await b.stop() == 0)
  }
}
