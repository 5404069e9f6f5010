import Foundation
import Testing

/// `serve` through the real binary: a HEAD never votes, and an empty voter id is a 400.
@Suite struct ServeSafeMethodTests {
  @Test func headNeverVotesAndAnEmptyVoterIdIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"), ["--write-limit", "0"])
    defer { server.process.kill() }
    // What a link checker or uptime monitor sends, before and after the key exists.
    let before = try await server.get("/hit/app.example/feature1", method: "HEAD")
    #expect(before.status == 404)
    #expect(try await server.get("/hit/app.example/feature1").body == #"{"value":1}"#)
    for target in [
      "/hit/app.example/feature1", "/update/app.example/feature1?amount=1",
      "/v1/app.example/feature1/up", "/create?namespace=app.example&key=feature1",
    ] {
      let head = try await server.get(target, method: "HEAD")
      #expect(head.status == 200, "\(target)")
      #expect(head.body.isEmpty)
      #expect(head.header("X-Content-Type-Options") == "nosniff")
    }
    let empty = try await server.get("/hit/app.example/feature1", headers: ["X-Voter-ID": ""])
    #expect(empty.status == 400, "\(empty.body)")
    #expect(empty.body.contains("invalid voter id"))
    #expect(try await server.get("/get/app.example/feature1").body == #"{"value":1}"#)
    #expect(try await server.stop() == 0)
  }
}
