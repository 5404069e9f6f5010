import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// counterapi.dev v1 routes, in process, over a real SQLite store.
@Suite struct CounterAPIRouteTests {
  static let notFound = #"{"code":400,"message":"record not found"}"#

  @Test func upDownSetTable() async throws {
    let h = try ServiceHarness()
    let admin: HTTPHeaders = ["Authorization": "Bearer \(ServiceHarness.token)"]
    await h.run([
      Step("/v1/ns1/likes", 400, Self.notFound),
      Step("/v1/ns1/likes/up", 200, nil),
      Step("/v1/ns1/likes/up", 200, nil),
      Step("/v1/ns1/likes/down", 200, nil),
      Step("/v1/ns1/likes/set?count=10", 200, nil, headers: admin),
      Step(
        "/v1/ns1/likes/set?count=-2", 400,
        #"{"code":400,"message":"count must be a non-negative integer"}"#, headers: admin),
      Step(
        "/v1/ns1/likes/set?count=3", 401,
        #"{"code":401,"message":"setting a count needs the admin token (Authorization: Bearer T or token=T)"}"#
      ),
      Step(
        "/v1/n/likes", 400,
        #"{"code":400,"message":"namespace and key must match ^[A-Za-z0-9_\\-.]{3,64}$"}"#),
    ])
    let row = await h.call("/v1/ns1/likes")
    #expect(row.status == 200)
    #expect(row.object["count"] as? Int == 10)
    #expect(row.object["name"] as? String == "likes")
    await h.tearDown()
  }

  /// counterapi's server got or created the row for `/down` as for `/up`: an unvote of a
  /// counter nobody voted on yet is a row at 0, not "record not found" (which an app reading
  /// `count` cannot decode), and the counter is there afterwards.
  @Test func downCreatesAMissingCounterAtZero() async throws {
    let h = try ServiceHarness()
    #expect(await h.call("/v1/ns1/likes").body == Self.notFound)
    for target in ["/v1/ns1/likes/down", "/v1/ns1/likes/down?voter=ann"] {
      let down = await h.call(target)
      #expect(down.status == 200, "\(target)")
      #expect(down.object["count"] as? Int == 0, "\(target)")
      #expect(down.object["name"] as? String == "likes", "\(target)")
    }
    let read = await h.call("/v1/ns1/likes")
    #expect(read.status == 200)
    #expect(read.object["count"] as? Int == 0)
    #expect(await h.call("/v1/ns1/likes/up").object["count"] as? Int == 1)
    await h.tearDown()
  }

  @Test func rowHasCounterapiFields() async throws {
    let h = try ServiceHarness()
    let up = await h.call("/v1/ns1/stars/up")
    let o = up.object
    #expect(o["count"] as? Int == 1)
    #expect((o["id"] as? Int ?? 0) > 0)
    #expect(o["name"] as? String == "stars")
    #expect(o["namespace_id"] as? Int == Int(CounterRoutes.namespaceID("ns1")))
    let created = try #require(o["created_at"] as? String)
    #expect(created.count == 24 && created.hasSuffix("Z") && created.hasPrefix("20"))
    #expect(o["updated_at"] is String)
    let namespace = try #require(o["namespace"] as? [String: Any])
    #expect(namespace["name"] as? String == "ns1")
    #expect(up.body.hasPrefix(#"{"id":"#))
    #expect(up.headers["X-Path"] == "/ns1/stars")
    await h.tearDown()
  }

  @Test func downNeverGoesBelowZero() async throws {
    let h = try ServiceHarness()
    _ = await h.call("/v1/ns1/stars/up")
    for _ in 0..<3 {
      let down = await h.call("/v1/ns1/stars/down")
      #expect(down.status == 200)
    }
    #expect(await h.call("/v1/ns1/stars").object["count"] as? Int == 0)
    await h.tearDown()
  }

  @Test func votersVoteOnceAndUnvoteOnlyTheirOwn() async throws {
    let h = try ServiceHarness()
    func count(_ target: String, _ voter: String) async -> Int? {
      await h.call(target, headers: ["X-Voter-ID": voter]).object["count"] as? Int
    }
    #expect(await count("/v1/ns1/stars/up", "alice") == 1)
    #expect(await count("/v1/ns1/stars/up", "alice") == 1)
    #expect(await count("/v1/ns1/stars/up", "bob") == 2)
    #expect(await count("/v1/ns1/stars/down", "carol") == 2)
    #expect(await count("/v1/ns1/stars/down", "alice") == 1)
    #expect(await count("/v1/ns1/stars/down", "alice") == 1)
    await h.tearDown()
  }
}
