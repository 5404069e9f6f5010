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

  /// Bug: the server's own refusals (a malformed request, a request line, fields or body too
  /// large, an unknown method or version, too many connections from one address) reached
  /// neither the access log ("one line per request") nor `/metrics`.
  @Test func theServersOwnRefusalsAreLoggedAndCounted() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"),
      ["--access-log", "--admin-token", Self.token])
    defer { server.process.kill() }
    let port = server.port
    let secret = Self.token
    let cases: [(bytes: String, status: Int, line: String)] = [
      ("GET /hit/ns1/key1?token=\(secret)  HTTP/1.1\r\nHost: a\r\n\r\n", 400, "- - 400 0.0ms"),
      (
        "GET /get/ns1/key1?token=\(secret)&k=\(String(repeating: "x", count: 9000)) HTTP/1.1\r\n"
          + "Host: a\r\n\r\n", 414, "- - 414 0.0ms"
      ),
      (
        "GET /get/ns1/key1 HTTP/1.1\r\nHost: a\r\n"
          + (0..<200).map { "X-F\($0): 1\r\n" }.joined() + "\r\n", 431, "- - 431 0.0ms"
      ),
      (
        "POST /hit/ns1/key1?token=\(secret) HTTP/1.1\r\nHost: a\r\nContent-Length: 9999999\r\n\r\n",
        413, "POST /hit/ns1/key1?token=[redacted] 413 0.0ms"
      ),
      (
        "BREW /get/ns1/key1?voter=\(secret) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 501,
        "BREW /get/ns1/key1?voter=[redacted] 501 0.0ms"
      ),
      ("GET /get/ns1/key1?token=\(secret) HTTP/2.0\r\nHost: a\r\n\r\n", 505, "- - 505 0.0ms"),
    ]
    for item in cases {
      let bytes = Array(item.bytes.utf8)
      let answer = try await WireClient.onThread { try WireConnection(port: port).raw(bytes) }
      #expect(answer.status == item.status, "\(item.bytes.prefix(60)): \(answer.body)")
    }
    let metrics = try await server.get("/metrics")
    for status in [400, 414, 431, 413, 501, 505] {
      #expect(
        metrics.body.contains(
          #"roadmap_http_requests_total{route="unmatched",status="\#(status)"} 1"#),
        "\(status) not counted:\n\(metrics.body)")
    }
    #expect(try await server.stop() == 0)
    let log = server.process.stderrText
    #expect(!log.contains(secret), "the token in the log:\n\(log)")
    for item in cases {
      #expect(log.contains("127.0.0.1 \(item.line)"), "\(item.line) not in the log:\n\(log)")
    }
  }

  /// A connection beyond `--max-connections-per-address` is refused with 503 before any
  /// request is read: its line says `-` for the method and target, and `/metrics` counts it.
  @Test func aConnectionOverTheAddressLimitIsLoggedAndCounted() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--access-log", "--max-connections-per-address", "1"])
    defer { server.process.kill() }
    let port = server.port
    // One connection held (and answered, so the server counts it), a second from the same
    // address refused; the held one then reads the metrics.
    let metrics = try await WireClient.onThread { () throws -> WireAnswer in
      let held = try WireConnection(port: port)
      #expect(try held.request("/get/ns1/key1").status == 404)
      let refused = try WireConnection(port: port).raw(
        Array("GET /get/ns1/key1 HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
      #expect(refused.status == 503)
      return try held.request("/metrics")
    }
    #expect(
      metrics.body.contains(#"roadmap_http_requests_total{route="unmatched",status="503"} 1"#),
      "\(metrics.body)")
    #expect(try await server.stop() == 0)
    let log = server.process.stderrText
    #expect(log.contains("127.0.0.1 - - 503 0.0ms"), "no 503 line in the log:\n\(log)")
    #expect(log.contains("127.0.0.1 GET /get/ns1/key1 404"), "\(log)")
  }
}
