import Foundation
import HTTPServer
import RoadmapFormat
import TestProcess
import Testing
import VoteStore

@testable import CounterService

/// Thousands of generated requests, most of them malformed or hostile, through every route of
/// the service (countapi, counterapi, the VoteFirst board API, the operations routes) over
/// real SQLite stores. Whatever comes in, the service answers as a client's error or a success,
/// never a server error, with a body its content type can be read as; and what it stored stays
/// whole: the project still exports, and the export imports into another project.
@Suite("Hostile traffic")
struct HostileTrafficTests {
  @Test(
    "every route answers generated hostile requests without a server error",
    arguments: [1, 2, 3] as [UInt64])
  func hostileRequests(seed: UInt64) async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      var generator = HostileTraffic(
        seed: seed, project: BoardHarness.project, adminToken: BoardHarness.token)
      var statuses: [Int: Int] = [:]
      for _ in 0..<1500 {
        let request = generator.request().httpRequest
        let response = await harness.service.handler(request)
        statuses[response.status, default: 0] += 1
        Self.check(response, for: request)
      }
      // The mix reaches both successes and refusals, so the routes' own logic ran.
      #expect(statuses.filter { (200..<300).contains($0.key) }.values.reduce(0, +) > 150)
      #expect(statuses.filter { (400..<500).contains($0.key) }.values.reduce(0, +) > 300)
      try await Self.checkStillWhole(harness)
    }
  }

  @Test("hostile requests sent at once leave the stores consistent")
  func concurrentHostileRequests() async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      await withTaskGroup(of: Void.self) { group in
        for lane in 0..<8 {
          group.addTask {
            var generator = HostileTraffic(
              seed: 100 + UInt64(lane), project: BoardHarness.project,
              adminToken: BoardHarness.token)
            for _ in 0..<200 {
              let request = generator.request().httpRequest
              let response = await harness.service.handler(request)
              Self.check(response, for: request)
            }
          }
        }
      }
      try await Self.checkStillWhole(harness)
    }
  }

  /// No server error, and a JSON body where the answer says JSON.
  static func check(
    _ response: HTTPResponse, for request: HTTPRequest,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let described =
      "\(request.method) \(request.target) \(String(decoding: request.body.prefix(300), as: UTF8.self))"
    #expect(
      response.status < 500,
      "\(described) → \(response.status) \(String(decoding: response.body, as: UTF8.self))",
      sourceLocation: sourceLocation)
    let type = response.headers["Content-Type"] ?? ""
    let problem = HostileTraffic.unescapedMarkup(
      in: String(decoding: response.body, as: UTF8.self), contentType: type)
    #expect(problem == nil, "\(described): \(problem ?? "")", sourceLocation: sourceLocation)
    if type.contains("json") && !response.body.isEmpty {
      let parsed = try? JSONSerialization.jsonObject(
        with: Data(response.body), options: [.fragmentsAllowed])
      #expect(
        parsed != nil, "\(described): not JSON: \(String(decoding: response.body, as: UTF8.self))",
        sourceLocation: sourceLocation)
    }
  }

  /// The service still answers, the project exports, and the export imports elsewhere whole.
  static func checkStillWhole(_ harness: BoardHarness) async throws {
    #expect(await harness.call(.get, "/healthz").status == 200)
    #expect(await harness.call(.get, "/get/demo-app/featureone").status < 500)
    let export = await harness.call(.get, "/api/v1/demo-app/export", admin: true)
    #expect(export.status == 200, "\(export.body)")
    let imported = await harness.call(
      .post, "/api/v1/copy-app/import", json: export.body, admin: true)
    #expect(imported.status == 200, "\(imported.body)")
    let copy = await harness.call(.get, "/api/v1/copy-app/export", admin: true)
    for key in ["features", "stages", "tags", "releases"] {
      #expect(
        (copy.object[key] as? [Any])?.count == (export.object[key] as? [Any])?.count,
        "\(key) after import")
    }
    let features = await harness.call(.get, "/api/v1/demo-app/features?limit=100")
    #expect(features.status == 200)
    // What the board publishes for old app versions still reads as the app reads it.
    let roadmap = await harness.call(.get, "/roadmap/demo-app.json")
    #expect(roadmap.status == 200)
    let document = try RoadmapDocument.read(Array(roadmap.body.utf8), mode: .compatible)
    #expect(!document.features.isEmpty)
  }
}

extension HostileRequest {
  /// The request as the service's handler takes it.
  var httpRequest: HTTPRequest {
    HTTPRequest(
      method: HTTPMethod(rawValue: method), target: target, headers: HTTPHeaders(headers),
      body: body, remoteAddress: remoteAddress)
  }
}
