import Foundation
import TestProcess
import Testing

/// Admin writes sent at once to two `roadmapctl serve` instances on one PostgreSQL database
/// (the audit of `serve`, defects 1–3): each write decides on what it read (a suggestion still
/// pending, no stage of that name, no feature of that ref), so two of them must not both read
/// before the other commits. SQLite was right all along (one writer); PostgreSQL made two
/// features of one approval, duplicate stages, and answered 422 with PostgreSQL's own text
/// for a ref two upserts created at once.
@Suite(.serialized) struct ServePostgresRaceTests {
  static let token = VoteFirstServer.token

  /// Bug: six approvals of one suggestion at once answered 200 three times and made three
  /// features. Now one 200, the others `409 already_decided`, one feature per suggestion.
  @Test func concurrentApprovalsOfOneSuggestionMakeOneFeature() async throws {
    try await Self.withTwoServers { ports in
      let project = "approvals"
      try await Self.call(ports[0], "GET", project, "/settings")
      let rounds = 4
      for round in 0..<rounds {
        let submitted = try await Self.call(
          ports[0], "POST", project, "/suggestions", #"{"title":"S\#(round)","description":"d"}"#,
          admin: false)
        #expect(submitted.status == 202, "\(submitted.body)")
        let id = try #require(submitted.object["id"] as? Int)
        let answers = try await Self.atOnce(6, ports) { port in
          ("POST", project, "/suggestions/\(id)/approve", nil, port)
        }
        let statuses = answers.map(\.status).sorted()
        #expect(statuses == [200, 409, 409, 409, 409, 409], "round \(round): \(statuses)")
        for answer in answers where answer.status == 409 {
          #expect(answer.body.contains(#""code":"already_decided""#), "\(answer.body)")
        }
      }
      let features = try await Self.call(ports[1], "GET", project, "/features?limit=100")
      let list = try #require(features.object["features"] as? [[String: Any]])
      #expect(list.count == rounds, "\(features.body)")
    }
  }

  /// Bug: `POST /stages?reuse=name` eight times at once per name made 13–18 stages for 5
  /// names. Now each name once, and every caller gets that stage.
  @Test func concurrentReuseByNameMakesEachStageOnce() async throws {
    try await Self.withTwoServers { ports in
      let project = "stages"
      try await Self.call(ports[0], "GET", project, "/settings")
      let names = ["Planned", "Doing", "Done"]
      for name in names {
        let answers = try await Self.atOnce(8, ports) { port in
          ("POST", project, "/stages?reuse=name", #"{"name":"\#(name)"}"#, port)
        }
        #expect(answers.allSatisfy { [200, 201].contains($0.status) }, "\(answers.map(\.body))")
        #expect(answers.filter { $0.status == 201 }.count == 1, "\(answers.map(\.status))")
        let ids = Set(answers.compactMap { $0.object["id"] as? Int })
        #expect(ids.count == 1, "\(name): \(answers.map(\.body))")
      }
      let board = try await Self.call(ports[1], "GET", project, "/board", admin: false)
      let stages = try #require(board.object["stages"] as? [[String: Any]])
      #expect(stages.compactMap { $0["name"] as? String }.sorted() == names.sorted())
    }
  }

  /// Bug: eight `PUT /features/ref/R` at once, or one batch sent four times at once, answered
  /// `422 validation_failed` with "PostgreSQL [23505]: ERROR: duplicate key value violates
  /// unique constraint …". Now every call succeeds: one creates, the others update (or find
  /// nothing to change), and the board holds each ref once.
  @Test func concurrentUpsertsByRefAndBatchesAllSucceed() async throws {
    try await Self.withTwoServers { ports in
      let project = "upserts"
      try await Self.call(ports[0], "GET", project, "/settings")
      for ref in ["r0", "r1", "r2"] {
        let answers = try await Self.atOnce(8, ports) { port in
          ("PUT", project, "/features/ref/\(ref)", #"{"title":"t \#(port)"}"#, port)
        }
        #expect(answers.allSatisfy { [200, 201].contains($0.status) }, "\(answers.map(\.body))")
        #expect(answers.filter { $0.status == 201 }.count == 1, "\(answers.map(\.status))")
        #expect(!answers.contains { $0.body.contains("PostgreSQL") || $0.body.contains("23505") })
      }
      let features = (0..<40).map { #"{"ref":"b\#($0)","title":"F\#($0)","importedVotes":3}"# }
      let batch = #"{"features":[\#(features.joined(separator: ","))]}"#
      let answers = try await Self.atOnce(4, ports) { port in
        ("POST", project, "/features/batch", batch, port)
      }
      #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.body))")
      let created = answers.compactMap { $0.object["created"] as? Int }.reduce(0, +)
      #expect(created == 40, "\(answers.map(\.body))")
      let listed = try await Self.call(ports[1], "GET", project, "/features?limit=100")
      let list = try #require(listed.object["features"] as? [[String: Any]])
      #expect(list.count == 43, "\(listed.body)")
      let batchVotes = list.filter { ($0["ref"] as? String)?.hasPrefix("b") == true }
        .compactMap { $0["votes"] as? Int }
      #expect(batchVotes == Array(repeating: 3, count: 40), "\(batchVotes)")
    }
  }

  /// Bug: after PostgreSQL restarted (and answered again), the next write on each pooled
  /// connection was answered 503 ("PostgreSQL connection lost: FATAL: terminating connection
  /// due to administrator command"), a board write days later too; an anonymous vote lost
  /// that way is lost for good (the Roadmap package marks the feature voted anyway). Every
  /// connection of the instance is ended here as a restart ends them, while idle: the next
  /// votes and board writes all succeed.
  @Test func writesAfterTheDatabaseEndedEveryIdleConnectionSucceed() async throws {
    let url = try await ServePostgres.shared.newDatabase()
    let server = try await VoteFirstServer.start(["--postgres", url])
    do {
      let port = server.serve.port
      let project = "restarted"
      for ref in ["a", "b", "c"] {
        let put = try await Self.call(
          port, "PUT", project, "/features/ref/\(ref)", #"{"title":"x"}"#)
        #expect(put.status == 201)
      }
      for _ in 0..<3 {
        #expect(try await server.serve.get("/hit/\(project)/featurea").status == 200)
      }
      try await Self.endConnections(of: url)
      var statuses: [Int] = []
      for round in 0..<8 {
        let ref = ["a", "b", "c"][round % 3]
        statuses.append(
          try await Self.call(
            port, "PUT", project, "/features/ref/\(ref)", #"{"title":"y\#(round)"}"#
          )
          .status)
        statuses.append(try await server.serve.get("/hit/\(project)/featurea").status)
      }
      #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
      let value = try await server.serve.get("/get/\(project)/featurea").object["value"] as? Int
      #expect(value == 11)
    } catch {
      try? await server.stop()
      throw error
    }
    try await server.stop()
  }

  // MARK: Support

  /// Ends every other session on the database at `url` (what a restart does to a pool's
  /// idle connections) and waits until they are gone. Only those: `serve`'s lock session
  /// (which keeps `votes merge-refs` out) connects again within seconds, as it should.
  static func endConnections(of url: String) async throws {
    let others = "datname = current_database() AND pid <> pg_backend_pid()"
    let ended = try await ServePostgres.shared.query(
      url,
      "SELECT coalesce(string_agg(pid::text, ','), '') FROM pg_stat_activity WHERE \(others)")
    guard !ended.isEmpty else { return }
    _ = try await ServePostgres.shared.query(
      url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid IN (\(ended))")
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(60) {
      let left = try await ServePostgres.shared.query(
        url, "SELECT count(*) FROM pg_stat_activity WHERE pid IN (\(ended))")
      if left == "0" { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("the sessions did not end")
  }

  /// Runs `body` with the ports of two `serve` instances on one new database.
  static func withTwoServers(_ body: ([Int]) async throws -> Void) async throws {
    try await withTwoInstances { try await body([$0.serve.port, $1.serve.port]) }
  }

  /// Runs `body` with two `serve` instances on one new database, and stops them after.
  static func withTwoInstances(
    _ body: (VoteFirstServer, VoteFirstServer) async throws -> Void
  ) async throws {
    let url = try await ServePostgres.shared.newDatabase()
    let a = try await VoteFirstServer.start(["--postgres", url])
    let b: VoteFirstServer
    do {
      b = try await VoteFirstServer.start(["--postgres", url])
    } catch {
      try? await a.stop()
      throw error
    }
    do {
      try await body(a, b)
    } catch {
      try? await a.stop()
      try? await b.stop()
      throw error
    }
    try await a.stop()
    try await b.stop()
  }

  /// One call under `/api/v1/PROJECT` on a new connection (with the admin token unless
  /// `admin` is false).
  @discardableResult
  static func call(
    _ port: Int, _ method: String, _ project: String, _ path: String, _ json: String? = nil,
    admin: Bool = true
  ) async throws -> WireAnswer {
    try await WireClient.onThread {
      try WireConnection(port: port).exchange(
        method, "/api/v1/\(project)\(path)", fields: fields(json: json, admin: admin),
        body: Array((json ?? "").utf8))
    }
  }

  /// `count` admin calls sent at once, alternating between `ports`: each on its own
  /// connection and thread, all connected before any sends (a start line, not a sleep).
  static func atOnce(
    _ count: Int, _ ports: [Int],
    _ request: @escaping @Sendable (Int) -> (String, String, String, String?, Int)
  ) async throws -> [WireAnswer] {
    let start = StartLine(count)
    return try await WireClient.concurrently(count) { index in
      let (method, project, path, json, port) = request(ports[index % ports.count])
      let connection = try WireConnection(port: port)
      start.arriveAndWait()
      return try connection.exchange(
        method, "/api/v1/\(project)\(path)", fields: fields(json: json, admin: true),
        body: Array((json ?? "").utf8))
    }
  }

  private static func fields(json: String?, admin: Bool) -> [(name: String, value: String)] {
    var fields: [(name: String, value: String)] = []
    if admin { fields.append((name: "Authorization", value: "Bearer \(token)")) }
    if json != nil { fields.append((name: "Content-Type", value: "application/json")) }
    return fields
  }
}
