import Foundation
import Testing

/// `serve --access-log` through the real binary: the admin token and voter ids never reach
/// a log line, however they are sent.
@Suite struct ServeAccessLogTests {
  static let token = "T0KEN-never-logged-7f3a"

  @Test func accessLogRedactsTheTokenAndVoterIds() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"),
      ["--access-log", "--admin-token", Self.token, "--write-limit", "0"])
    defer { server.process.kill() }
    let requests: [(target: String, headers: [String: String], status: Int)] = [
      ("/set/ns1/feature1?value=3&token=\(Self.token)", [:], 200),
      // Not the admin token's name (names are case-sensitive), but hidden all the same.
      ("/set/ns1/feature1?TOKEN=\(Self.token)&value=4", [:], 403),
      ("/set/ns1/feature1?value=5&%74oken=\(Self.token)", [:], 200),
      ("/hit/ns1/feature1?voter=alice.secret%40example.com", [:], 200),
      ("/hit/ns1/feature1?voter=carol.secret@example.com&callback=cb", [:], 200),
      ("/hit/ns1/feature1", ["X-Voter-ID": "bob.secret@example.com"], 200),
      (
        "/v1/ns1/feature1/set?count=9",
        ["Authorization": "Bearer \(Self.token)", "X-Voter-ID": "dan.secret@example.com"], 200
      ),
    ]
    for request in requests {
      let answer = try await server.get(request.target, headers: request.headers)
      #expect(answer.status == request.status, "\(request.target): \(answer.body)")
    }
    #expect(try await server.stop() == 0)
    let log = server.process.stderrText
    for secret in [Self.token, "secret", "example.com"] {
      #expect(!log.contains(secret), "\(secret) in the log:\n\(log)")
    }
    // Every request still has its line, with the rest of its target intact.
    for expected in [
      "GET /set/ns1/feature1?value=3&token=[redacted] 200",
      "GET /set/ns1/feature1?TOKEN=[redacted]&value=4 403",
      "GET /set/ns1/feature1?value=5&%74oken=[redacted] 200",
      "GET /hit/ns1/feature1?voter=[redacted] 200",
      "GET /hit/ns1/feature1?voter=[redacted]&callback=cb 200",
      "GET /hit/ns1/feature1 200",
      "GET /v1/ns1/feature1/set?count=9 200",
    ] {
      #expect(log.contains(expected), "\(expected) not in the log:\n\(log)")
    }
  }
}
