import Foundation
import Testing

/// The real `roadmapctl serve` binary over HTTP: every route, status and body.
@Suite struct ServeConformanceTests {
  static let token = "conformance-token"
  static let nameError = #"{"error":"namespace and key must match ^[A-Za-z0-9_\\-.]{3,64}$"}"#

  /// A request and the exact answer expected.
  struct Row: Sendable {
    var target: String
    var status: Int
    var body: String?
    var headers: [String: String] = [:]
    init(_ target: String, _ status: Int, _ body: String?, _ headers: [String: String] = [:]) {
      self.target = target
      self.status = status
      self.body = body
      self.headers = headers
    }
  }

  @Test func everyRouteOverHTTP() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"),
      ["--admin-token", Self.token, "--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    let admin = ["Authorization": "Bearer \(Self.token)"]
    let alice = ["X-Voter-ID": "alice"]
    let rows: [Row] = [
      Row("/healthz", 200, #"{"status":"ok"}"#),
      // countapi.xyz
      Row("/get/app.example/feature1", 404, #"{"value":null}"#),
      Row("/hit/app.example/feature1", 200, #"{"value":1}"#),
      Row("/hit/app.example/feature1", 200, #"{"value":2}"#),
      Row("/get/app.example/feature1", 200, #"{"value":2}"#),
      Row("/update/app.example/feature1?amount=-1", 200, #"{"value":1}"#),
      Row("/update/app.example/feature1?amount=5", 403, #"{"value":1}"#),
      Row("/update/app.example/feature1?amount=-1", 200, #"{"value":0}"#),
      Row("/update/app.example/feature1?amount=-1", 200, #"{"value":0}"#),
      Row("/update/app.example/none1?amount=1", 404, #"{"value":null}"#),
      Row("/update/app.example/feature1?amount=x", 400, #"{"error":"amount must be an integer"}"#),
      Row("/hit/feature7", 200, #"{"value":1}"#),
      Row("/get/default/feature7", 200, #"{"value":1}"#),
      Row("/get/feature7", 200, #"{"value":1}"#),
      Row("/get/ab/feature1", 400, Self.nameError),
      Row("/hit/app.example/bad%20key", 400, Self.nameError),
      Row("/hit/app.example/feature2", 200, #"{"value":1}"#, alice),
      Row("/hit/app.example/feature2", 200, #"{"value":1}"#, alice),
      Row("/hit/app.example/feature2?voter=bob", 200, #"{"value":2}"#),
      Row("/update/app.example/feature2?amount=-1&voter=carol", 200, #"{"value":2}"#),
      Row("/update/app.example/feature2?amount=-1", 200, #"{"value":1}"#, alice),
      Row("/set/app.example/feature2?value=9", 403, nil),
      Row("/set/app.example/feature2?value=9", 200, #"{"old_value":1,"value":9}"#, admin),
      Row(
        "/set/app.example/feature2?value=10&token=\(Self.token)", 200,
        #"{"old_value":9,"value":10}"#),
      Row("/set/app.example/none2?value=1", 404, #"{"value":null}"#),
      Row(
        "/create?namespace=app.example&key=resettable&value=4&enable_reset=1", 200,
        #"{"namespace":"app.example","key":"resettable","value":4}"#),
      Row(
        "/create?namespace=app.example&key=resettable", 409,
        #"{"namespace":null,"key":null,"value":null}"#),
      Row("/set/app.example/resettable?value=0", 200, #"{"old_value":4,"value":0}"#),
      Row("/info/app.example/none3", 404, #"{"value":null}"#),
      Row("/hit/app.example/feature3?callback=cb", 200, #"/**/cb({"value":1});"#),
      Row(
        "/hit//feature3", 400,
        #"{"error":"a namespace or key is empty: the path has an empty segment (//)"}"#),
      Row("/get/default/feature3", 404, #"{"value":null}"#),
      Row("/hit/app.example/feature3?callback=alert(1)", 400, nil),
      // counterapi.dev v1
      Row("/v1/app.example/likes", 400, #"{"code":400,"message":"record not found"}"#),
      Row("/v1/app.example/likes/down", 200, nil),
      Row("/v1/app.example/likes/up", 200, nil),
      Row("/v1/app.example/likes/down", 200, nil),
      Row("/v1/app.example/likes/down", 200, nil),
      Row("/v1/app.example/likes/set?count=3", 401, nil),
      Row("/v1/app.example/likes/set?count=3", 200, nil, admin),
      // ours
      Row(
        "/counts/app.example?keys=feature1,feature2,likes,nothing", 200,
        #"{"counts":{"feature1":0,"feature2":10,"likes":3,"nothing":0}}"#),
      // Without keys: every counter of the namespace, one page (issue 9).
      Row("/counts/app.example", 200, nil),
      Row("/nowhere", 404, #"{"error":"not found"}"#),
    ]
    for row in rows {
      let answer = try await server.get(row.target, headers: row.headers)
      #expect(answer.status == row.status, "\(row.target): \(answer.body)")
      if let body = row.body { #expect(answer.body == body, "\(row.target)") }
      #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(row.target)")
      #expect(answer.header("X-Path") != nil, "\(row.target)")
    }

    let listing = try await server.get("/counts/app.example")
    #expect(listing.body.contains(#""likes":3"#), "\(listing.body)")
    #expect(listing.body.contains(#""next":null"#), "\(listing.body)")

    let info = try await server.get("/info/app.example/resettable")
    #expect(info.status == 200)
    #expect(info.object["enable_reset"] as? Bool == true)
    #expect(info.object["ttl"] as? Int == -1)
    let stats = try await server.get("/stats")
    #expect(stats.status == 200)
    #expect((stats.object["keys_created"] as? Int ?? 0) >= 6)
    let row = try await server.get("/v1/app.example/likes")
    #expect(row.object["count"] as? Int == 3)
    #expect(row.object["name"] as? String == "likes")
    #expect(row.object["created_at"] is String)

    let options = try await server.get("/hit/app.example/feature1", method: "OPTIONS")
    #expect(options.status == 204)
    #expect(options.header("Access-Control-Allow-Headers")?.contains("X-Voter-ID") == true)
    let head = try await server.get("/get/app.example/feature2", method: "HEAD")
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
    let post = try await server.get("/hit/app.example/feature2", method: "POST")
    #expect(post.status == 405)
    let metrics = try await server.get("/metrics")
    #expect(metrics.status == 200)
    #expect(
      metrics.body.contains(#"roadmap_http_requests_total{route="/hit/:ns/:key",status="200"}"#))
    #expect(metrics.body.contains("roadmap_http_request_duration_seconds_bucket"))

    #expect(try await server.stop() == 0)
    #expect(server.process.stderrText.contains("Stopped."))
  }

  @Test func keepAliveConnectionServesManyRequests() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--write-limit", "0"])
    defer { server.process.kill() }
    let port = server.port
    let values = try await WireClient.onThread {
      let connection = try WireConnection(port: port)
      return try (1...50).map { _ in try connection.request("/hit/app.example/keepalive").body }
    }
    #expect(values.last == #"{"value":50}"#)
    #expect(try await server.stop() == 0)
  }

  /// A name holding a control character (`%00`, `%0A`, decoded) is refused with its `X-Path`
  /// like any other error, the control characters percent-encoded: a field value cannot
  /// hold them, and the answer used to go out without the header.
  @Test func aControlCharacterInANameKeepsXPath() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--read-limit", "0", "--write-limit", "0"])
    defer { server.process.kill() }
    for (target, xPath) in [
      ("/get/app.example/feature%00", "/app.example/feature%00"),
      ("/hit/app.example/feature%0A", "/app.example/feature%0A"),
      ("/get/feature%0D%0AX-Injected:%201", "/default/feature%0D%0AX-Injected: 1"),
      ("/v1/app.example/likes%7F", "/app.example/likes%7F"),
    ] {
      let answer = try await server.get(target)
      #expect(answer.status == 400, "\(target)")
      #expect(answer.header("X-Path") == xPath, "\(target)")
      #expect(answer.header("X-Injected") == nil, "\(target)")
      #expect(answer.header("Access-Control-Allow-Origin") == "*", "\(target)")
    }
    #expect(try await server.stop() == 0)
  }
}
