import Foundation
import Testing

/// No lost or doubled votes under concurrency, through the real binary.
@Suite struct ServeExactnessTests {
  @Test func tenThousandHitsFrom64ConnectionsCountExactly() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    let port = server.port
    let connections = 64
    let total = 10_000
    let acknowledged = try await WireClient.concurrently(connections) { i in
      let connection = try WireConnection(port: port)
      let share = total / connections + (i < total % connections ? 1 : 0)
      var ok = 0
      for _ in 0..<share {
        let answer = try connection.request("/hit/app.example/exact")
        if answer.status == 200 { ok += 1 }
      }
      return ok
    }
    #expect(acknowledged.reduce(0, +) == total)
    #expect(try await server.get("/get/app.example/exact").body == "{\"value\":\(total)}")
    #expect(try await server.stop() == 0)
  }

  @Test func repeatedHitsByOneVoterCountOnce() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    let port = server.port
    let voters = 100
    // 64 connections, 2,000 hits; every voter hits 20 times, from different connections.
    _ = try await WireClient.concurrently(64) { i in
      let connection = try WireConnection(port: port)
      var n = i
      while n < 2000 {
        let answer = try connection.request(
          "/hit/app.example/voted", headers: ["X-Voter-ID": "voter-\(n % voters)"])
        guard answer.status == 200 else { throw WireError(description: answer.body) }
        n += 64
      }
      return 0
    }
    #expect(try await server.get("/get/app.example/voted").body == "{\"value\":\(voters)}")
    // Unvotes by half of them, twice each, concurrently: exactly half remain.
    _ = try await WireClient.concurrently(50) { i in
      let connection = try WireConnection(port: port)
      for _ in 0..<2 {
        _ = try connection.request(
          "/update/app.example/voted?amount=-1", headers: ["X-Voter-ID": "voter-\(i * 2)"])
      }
      return 0
    }
    #expect(try await server.get("/get/app.example/voted").body == "{\"value\":50}")
    #expect(try await server.stop() == 0)
  }
}
