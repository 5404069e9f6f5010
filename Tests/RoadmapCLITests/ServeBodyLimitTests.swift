import Foundation
import Testing
import VoteFirstAPI

/// `roadmapctl serve`'s body limits: 1 MiB for everyone, 32 MiB only for the VoteFirst batch
/// and import calls that carry the admin token (the real binary, over loopback).
@Suite struct ServeBodyLimitTests {
  static let twoMiB = 2 << 20
  static let batch = "/api/v1/demo-app/features/batch"

  /// Sends a head announcing a 2 MiB body, and no body byte, then reads the answer.
  static func announce(
    _ server: VoteFirstServer, _ target: String, method: String = "POST",
    headers: [String: String] = [:]
  ) async throws -> WireAnswer {
    var fields = headers
    fields["Content-Length"] = String(twoMiB)
    fields["Content-Type"] = "application/json"
    return try await server.serve.get(target, method: method, headers: fields)
  }

  @Test func anAnonymousTwoMiBBatchIsRefusedFromItsHeadAlone() async throws {
    let server = try await VoteFirstServer.start()
    do {
      // The server answers before a single body byte is sent: it never reads 2 MiB.
      let anonymous = try await Self.announce(server, Self.batch)
      #expect(anonymous.status == 413)
      #expect(anonymous.body.contains("exceeds 1048576 bytes"))
      #expect(anonymous.header("Connection") == "close")

      // The 413 comes instead of the 100 Continue.
      let expecting = try await Self.announce(
        server, Self.batch, headers: ["Expect": "100-continue"])
      #expect(expecting.status == 413)

      let wrong = try await Self.announce(
        server, Self.batch, headers: ["Authorization": "Bearer \(VoteFirstServer.token)-not"])
      #expect(wrong.status == 413)

      // The admin token grants the larger limit only on the import calls.
      let bearer = ["Authorization": "Bearer \(VoteFirstServer.token)"]
      for (method, target) in [
        ("PUT", "/api/v1/demo-app/settings"), ("PUT", "/api/v1/demo-app/features/ref/r1"),
        ("POST", "/api/v1/demo-app/suggestions"), ("POST", "/hit/demo-app/feature1"),
      ] {
        let answer = try await Self.announce(server, target, method: method, headers: bearer)
        #expect(answer.status == 413, "\(method) \(target)")
      }

      // A body within 1 MiB still reaches the route, which refuses it for its own reasons.
      let small = try await server.serve.get(
        Self.batch, method: "POST", headers: ["Content-Length": "0"])
      #expect(small.status == 401)
    } catch {
      try? await server.stop()
      throw error
    }
    try await server.stop()
  }

  @Test func theSameBatchWithTheAdminTokenIsStored() async throws {
    let server = try await VoteFirstServer.start()
    do {
      let description = String(repeating: "d", count: 1_600)
      let upserts = (1...1_400).map { n in
        FeatureUpsert(
          content: FeatureContent(
            ref: "r\(n)", title: "Feature \(n)", description: description),
          importedVotes: n % 3)
      }
      let body = try VoteFirstCoding.encode(FeatureBatch(features: upserts))
      #expect(body.count > Self.twoMiB)
      let result = try await server.admin(timeout: 300).upsertFeatures(upserts)
      #expect(result.created == 1_400)
      #expect(result.features.map(\.ref) == upserts.map { $0.ref! })
      let all = try await server.client().allFeatures()
      #expect(all.count == 1_400)
      #expect(all.allSatisfy { $0.description == description })
    } catch {
      try? await server.stop()
      throw error
    }
    try await server.stop()
  }
}
