import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// A HEAD never writes, and a voter id that is present but empty is a 400.
@Suite struct SafeMethodTests {
  static let admin: HTTPHeaders = ["Authorization": "Bearer \(ServiceHarness.token)"]

  /// Each writing route with the read whose answer its HEAD must match.
  static let writingRoutes: [(write: String, read: String)] = [
    ("/hit/ns1/feature1", "/get/ns1/feature1"),
    ("/hit/feature1", "/get/feature1"),
    ("/update/ns1/feature1?amount=1", "/get/ns1/feature1"),
    ("/update/feature1?amount=-1", "/get/feature1"),
    ("/set/ns1/feature1?value=9", "/get/ns1/feature1"),
    ("/set/feature1?value=9", "/get/feature1"),
    ("/create?namespace=ns1&key=feature1&value=5", "/get/ns1/feature1"),
    ("/create?key=feature1", "/get/feature1"),
    ("/v1/ns1/feature1/up", "/v1/ns1/feature1"),
    ("/v1/ns1/feature1/down", "/v1/ns1/feature1"),
    ("/v1/ns1/feature1/set?count=9", "/v1/ns1/feature1"),
  ]

  @Test func headOnAWritingRouteAnswersAsTheReadAndChangesNothing() async throws {
    let h = try ServiceHarness()
    // Missing counters: the HEAD is the read's 404 (or counterapi's 400), and creates none.
    for route in Self.writingRoutes {
      let head = await h.call(route.write, method: .head, headers: Self.admin)
      let read = await h.call(route.read)
      #expect(head.status == read.status, "\(route.write)")
      #expect(head.body == read.body, "\(route.write)")
    }
    #expect(await h.call("/get/ns1/feature1").status == 404)
    #expect(await h.call("/get/feature1").status == 404)
    // Existing counters: the HEAD is the read's 200, with its headers; the count stays.
    _ = await h.call("/hit/ns1/feature1")
    _ = await h.call("/hit/feature1")
    for route in Self.writingRoutes {
      let head = await h.call(
        route.write, method: .head,
        headers: ["X-Voter-ID": "monitor-1", "Authorization": "Bearer \(ServiceHarness.token)"])
      let read = await h.call(route.read)
      #expect(head.status == 200, "\(route.write): \(head.body)")
      #expect(head.body == read.body, "\(route.write)")
      #expect(head.headers["Content-Type"] == read.headers["Content-Type"], "\(route.write)")
      if !route.write.hasPrefix("/create") {
        #expect(head.headers["X-Path"] == read.headers["X-Path"], "\(route.write)")
      }
    }
    #expect(await h.call("/get/ns1/feature1").body == #"{"value":1}"#)
    #expect(await h.call("/get/feature1").body == #"{"value":1}"#)
    let metrics = await h.call("/metrics").body
    #expect(metrics.contains("roadmap_votes_applied_total 2\n"), "\(metrics)")
    await h.tearDown()
  }

  @Test func headOnCreateReadsTheNamedKeyOnly() async throws {
    let h = try ServiceHarness()
    let nameError = #"{"error":"namespace and key must match ^[A-Za-z0-9_\\-.]{3,64}$"}"#
    let dotsError = #"{"error":"namespace and key must not be made of dots only"}"#
    for (target, status, body) in [
      ("/create?namespace=n&key=feature1", 400, nameError),
      ("/create?namespace=ns1&key=b%20d", 400, nameError),
      ("/create?namespace=ns1&key=...", 400, dotsError),
      ("/create?namespace=ns1", 404, #"{"value":null}"#),
      ("/create?namespace=ns1&key=", 404, #"{"value":null}"#),
    ] {
      let answer = await h.call(target, method: .head)
      #expect(answer.status == status, "\(target)")
      #expect(answer.body == body, "\(target)")
    }
    #expect(await h.call("/stats").object["keys_created"] as? Int == 0)
    await h.tearDown()
  }

  @Test func headDrawsOnTheReadLimitNotTheWriteLimit() async throws {
    let h = try ServiceHarness { $0.writeLimit = RateLimit(burst: 1, perSecond: 0.001) }
    for _ in 0..<5 {
      #expect(await h.call("/hit/ns1/feature1", method: .head).status == 404)
    }
    #expect(await h.call("/hit/ns1/feature1").status == 200)
    #expect(await h.call("/hit/ns1/feature1").status == 429)
    await h.tearDown()
  }

  @Test func headOnHealthAndMetricsIsNeverLimited() async throws {
    let h = try ServiceHarness { $0.readLimit = RateLimit(burst: 1, perSecond: 0.001) }
    for _ in 0..<5 {
      #expect(await h.call("/healthz", method: .head).status == 200)
      #expect(await h.call("/metrics", method: .head).status == 200)
    }
    await h.tearDown()
  }

  @Test func headOnAWritingRouteWithoutAReadIs405() {
    let reply = CounterService.headNotAllowed(.counterapi)
    #expect(reply.status == 405)
    #expect(reply.body == #"{"code":405,"message":"HEAD is not allowed here: this route writes"}"#)
    #expect(reply.headers.first { $0.name == "Allow" }?.value == "GET, OPTIONS")
  }

  @Test(arguments: [
    ("/hit/ns1/feature1", ["X-Voter-ID": ""] as HTTPHeaders),
    ("/hit/ns1/feature1?voter=", HTTPHeaders()),
    ("/hit/ns1/feature1?voter", HTTPHeaders()),
    ("/update/ns1/feature1?amount=1&voter=", HTTPHeaders()),
    ("/update/ns1/feature1?amount=-1", ["X-Voter-ID": ""] as HTTPHeaders),
    ("/v1/ns1/feature1/up", ["X-Voter-ID": ""] as HTTPHeaders),
    ("/v1/ns1/feature1/down?voter=", HTTPHeaders()),
  ])
  func anEmptyVoterIdIs400AndChangesNothing(target: String, headers: HTTPHeaders) async throws {
    let h = try ServiceHarness()
    _ = await h.call("/hit/ns1/feature1")
    let answer = await h.call(target, headers: headers)
    #expect(answer.status == 400, "\(answer.body)")
    #expect(answer.body.contains("invalid voter id"))
    #expect(await h.call("/get/ns1/feature1").body == #"{"value":1}"#)
    await h.tearDown()
  }
}
