import Foundation
import RoadmapFormat
import TestProcess
import Testing

/// The generated hostile traffic of `HostileTraffic` (every route: countapi, counterapi, the
/// board API, the operations routes) sent over real sockets to two real `roadmapctl serve`,
/// one on SQLite and one on PostgreSQL, request by request: never a server error, JSON where
/// the answer says JSON, the same status from both stores, and afterwards each project
/// exports, imports elsewhere whole and publishes Roadmap JSON the app reads. (The bodies
/// differ only in times and in counterapi's row ids, which PostgreSQL's sequences leave gaps
/// in.) It found that a feature text with a NUL character was refused on PostgreSQL only.
@Suite("Serve: hostile traffic")
struct ServeHostileTrafficTests {
  static let project = "demo-app"

  @Test(
    "generated hostile requests: no server error, and the same answers on SQLite and PostgreSQL")
  func hostileTraffic() async throws {
    try await Self.onBothStores { ports in
      let problems = try await WireClient.onThread {
        try Self.run(ports: ports, seed: 11, count: 1200)
      }
      #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
      for port in ports { try await Self.checkStillWhole(port: port) }
    }
  }

  @Test("a mutated export imports whole or not at all, alike on SQLite and PostgreSQL")
  func mutatedImports() async throws {
    try await Self.onBothStores { ports in
      let problems = try await WireClient.onThread {
        try Self.importMutations(ports: ports, seed: 5, count: 80)
      }
      #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }
  }

  /// Runs `body` with the ports of two fresh servers, on SQLite and on PostgreSQL (in that
  /// order), and stops them afterwards.
  static func onBothStores(_ body: ([Int]) async throws -> Void) async throws {
    try await VoteFirstServer.with(.sqlite) { sqlite in
      try await VoteFirstServer.with(.postgres) { postgres in
        try await body([sqlite.serve.port, postgres.serve.port])
      }
    }
  }

  /// Seeds a project on the first server, then imports `count` mutations of its export into
  /// new projects on every server; returns what went wrong.
  static func importMutations(ports: [Int], seed: UInt64, count: Int) throws -> [String] {
    let links = try ports.map { try Link(port: $0) }
    let admin = [(name: "Authorization", value: "Bearer \(VoteFirstServer.token)")]
    let json = admin + [(name: "Content-Type", value: "application/json")]
    for (method, path, body) in [
      ("POST", "/stages", #"{"name":"Planned"}"#), ("POST", "/tags", #"{"name":"iOS"}"#),
      ("PUT", "/features/ref/one", #"{"title":"One","importedVotes":7}"#),
      ("PUT", "/features/ref/two", #"{"title":"Two","stage":1,"tags":[1],"progress":40}"#),
      ("POST", "/releases", #"{"title":"1.0","date":"2026-11-01T00:00:00Z","features":[1]}"#),
      ("POST", "/suggestions", #"{"title":"Dark mode","description":"Please"}"#),
    ] {
      let answer = try links[0].exchange(
        method, "/api/v1/\(project)" + path, fields: json, body: Array(body.utf8))
      guard (200..<300).contains(answer.status) else {
        return ["seeding \(method) \(path): \(answer.status) \(answer.body)"]
      }
    }
    let export = try links[0].exchange("GET", "/api/v1/\(project)/export", fields: admin)
    guard
      let original = try JSONSerialization.jsonObject(with: Data(export.body.utf8))
        as? [String: Any]
    else { return ["the export is not a JSON object: \(export.body.prefix(200))"] }
    var mutator = ExportMutator(seed: seed)
    var problems: [String] = []
    for round in 0..<count {
      let (body, change) = mutator.mutate(original)
      let target = "imported-\(round)"
      var statuses: [Int] = []
      for link in links {
        let answer = try link.exchange(
          "POST", "/api/v1/\(target)/import", fields: json, body: Array(body.utf8))
        statuses.append(answer.status)
        if answer.status >= 500 { problems.append("\(change): \(answer.status) \(answer.body)") }
        guard !(200..<300).contains(answer.status) else { continue }
        let after = try link.exchange("GET", "/api/v1/\(target)/export", fields: admin)
        for key in ["features", "stages", "tags", "releases", "suggestions"]
        where !((after.object[key] as? [Any])?.isEmpty ?? true) {
          problems.append("\(change) (port \(link.port)): refused, but \(key) left")
        }
        for ref in ["one", "two"] {
          let counter = try link.exchange("GET", "/get/\(target)/feature\(ref)")
          if counter.status != 404 {
            problems.append("\(change) (port \(link.port)): refused, but counter \(ref) left")
          }
        }
      }
      if Set(statuses).count > 1 {
        problems.append("\(change): SQLite \(statuses[0]), PostgreSQL \(statuses.last!)")
      }
    }
    return problems
  }

  /// One keep-alive connection to a server, opened again when the server closes it.
  final class Link {
    let port: Int
    var connection: WireConnection

    init(port: Int) throws {
      self.port = port
      connection = try WireConnection(port: port)
    }

    func exchange(
      _ method: String, _ target: String, fields: [(name: String, value: String)] = [],
      body: [UInt8] = []
    ) throws -> WireAnswer {
      let answer: WireAnswer
      do {
        answer = try connection.exchange(method, target, fields: fields, body: body)
      } catch {
        connection = try WireConnection(port: port)
        throw error
      }
      if answer.header("Connection")?.lowercased() == "close" {
        connection = try WireConnection(port: port)
      }
      return answer
    }
  }

  /// Seeds the project on each server, sends `count` generated requests to each and returns
  /// what went wrong.
  static func run(ports: [Int], seed: UInt64, count: Int) throws -> [String] {
    let links = try ports.map { try Link(port: $0) }
    let admin = [(name: "Authorization", value: "Bearer \(VoteFirstServer.token)")]
    let json = admin + [(name: "Content-Type", value: "application/json")]
    let base = "/api/v1/\(project)"
    for link in links {
      for (method, path, body) in [
        ("PUT", "/settings", #"{"name":"Demo"}"#), ("POST", "/stages", #"{"name":"Planned"}"#),
        ("POST", "/tags", #"{"name":"iOS"}"#), ("PUT", "/features/ref/one", #"{"title":"One"}"#),
        ("PUT", "/features/ref/two", #"{"title":"Two","stage":1,"tags":[1]}"#),
        ("POST", "/releases", #"{"title":"1.0","date":"2026-11-01T00:00:00Z","features":[1]}"#),
      ] {
        let answer = try link.exchange(method, base + path, fields: json, body: Array(body.utf8))
        guard (200..<300).contains(answer.status) else {
          return ["seeding \(method) \(path): \(answer.status) \(answer.body)"]
        }
      }
    }
    var generator = HostileTraffic(seed: seed, project: project, adminToken: VoteFirstServer.token)
    var problems: [String] = []
    var successes = 0
    for _ in 0..<count {
      let request = generator.request()
      let described =
        "\(request.method) \(request.wireTarget) \(String(decoding: request.body.prefix(200), as: UTF8.self))"
      var statuses: [Int] = []
      for link in links {
        let answer: WireAnswer
        do {
          answer = try link.exchange(
            request.method, request.wireTarget, fields: request.headers, body: request.body)
        } catch {
          problems.append("\(described) (port \(link.port)): \(error)")
          continue
        }
        statuses.append(answer.status)
        if let problem = HostileTraffic.unescapedMarkup(
          in: answer.body, contentType: answer.header("Content-Type") ?? "")
        {
          problems.append("\(described): \(problem)")
        }
        if answer.status >= 500 {
          problems.append("\(described) → \(answer.status) \(answer.body.prefix(300))")
        }
        if answer.header("Content-Type")?.contains("json") == true, !answer.body.isEmpty,
          (try? JSONSerialization.jsonObject(
            with: Data(answer.body.utf8), options: [.fragmentsAllowed])) == nil
        {
          problems.append("\(described): not JSON: \(answer.body.prefix(200))")
        }
      }
      if Set(statuses).count > 1 {
        problems.append("\(described): SQLite \(statuses[0]), PostgreSQL \(statuses.last!)")
      }
      if statuses.allSatisfy({ (200..<300).contains($0) }) { successes += 1 }
    }
    if successes < count / 10 { problems.append("only \(successes) successes") }
    return problems
  }

  /// The server still answers, the project exports and imports elsewhere whole, and its Roadmap
  /// JSON reads as the app reads it.
  static func checkStillWhole(port: Int) async throws {
    let answers = try await WireClient.onThread { () -> [WireAnswer] in
      let link = try Link(port: port)
      let admin = [(name: "Authorization", value: "Bearer \(VoteFirstServer.token)")]
      let export = try link.exchange("GET", "/api/v1/\(project)/export", fields: admin)
      let imported = try link.exchange(
        "POST", "/api/v1/copy-app/import",
        fields: admin + [(name: "Content-Type", value: "application/json")],
        body: Array(export.body.utf8))
      let copy = try link.exchange("GET", "/api/v1/copy-app/export", fields: admin)
      let roadmap = try link.exchange("GET", "/roadmap/\(project).json")
      let health = try link.exchange("GET", "/healthz")
      return [export, imported, copy, roadmap, health]
    }
    let (export, imported, copy, roadmap, health) = (
      answers[0], answers[1], answers[2], answers[3], answers[4]
    )
    #expect(export.status == 200, "\(export.body.prefix(300))")
    #expect(imported.status == 200, "\(imported.body.prefix(300))")
    for key in ["features", "stages", "tags", "releases"] {
      #expect(
        (copy.object[key] as? [Any])?.count == (export.object[key] as? [Any])?.count,
        "\(key) after import")
    }
    #expect(roadmap.status == 200)
    let document = try RoadmapDocument.read(Array(roadmap.body.utf8), mode: .compatible)
    #expect(!document.features.isEmpty)
    #expect(health.status == 200)
  }
}

/// A feature text may hold U+0000 (JSON allows `\u0000`, and a Roadmap JSON file migrated from
/// an app may carry one); PostgreSQL text cannot. The feature is kept on both stores, and `q`
/// searches as if the NUL were not there.
@Suite("Serve: NUL in a feature's text")
struct ServeNULTextTests {
  @Test(
    "a feature with a NUL in its texts is stored and found on either store",
    arguments: BoardBackend.allCases)
  func nulInFeatureText(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let port = server.serve.port
      let answers = try await WireClient.onThread { () -> [WireAnswer] in
        let connection = try WireConnection(port: port)
        let json = [
          (name: "Authorization", value: "Bearer \(VoteFirstServer.token)"),
          (name: "Content-Type", value: "application/json"),
        ]
        let body =
          #"{"title":"Dark\u0000Mode","localizedDescription":[{"language":"de","value":"a\u0000b"}]}"#
        return [
          try connection.exchange(
            "PUT", "/api/v1/demo-app/features/ref/one", fields: json, body: Array(body.utf8)),
          try connection.exchange("GET", "/api/v1/demo-app/features?q=darkmode"),
          try connection.exchange("GET", "/api/v1/demo-app/features?q=k%00m"),
          try connection.exchange("GET", "/api/v1/demo-app/features?q=%00"),
          try connection.exchange("GET", "/api/v1/demo-app/features?q=dark%00x"),
          try connection.exchange("GET", "/api/v1/demo-app/features/1"),
        ]
      }
      #expect(answers[0].status == 201, "\(answers[0].body)")
      for answer in answers[1...3] {
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.titles == ["Dark\u{0}Mode"], "\(answer.body)")
      }
      #expect(answers[4].status == 200)
      #expect(answers[4].titles.isEmpty)
      #expect(answers[5].object["title"] as? String == "Dark\u{0}Mode")
    }
  }
}

extension WireAnswer {
  /// The `title` of every feature of a `…/features` page.
  fileprivate var titles: [String] {
    (object["features"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
  }
}
