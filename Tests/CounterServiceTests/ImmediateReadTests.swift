import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// The one-counter reads answered on the I/O thread from the store's memory
/// (``CounterService/immediateHandler``) answer exactly as the ordinary handler does, and
/// pass whatever memory does not know.
@Suite struct ImmediateReadTests {
  private static func request(
    _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = HTTPHeaders()
  ) -> HTTPRequest {
    HTTPRequest(method: method, target: target, headers: headers, remoteAddress: "10.0.0.1")
  }

  private static func cachedHarness(
    _ adjust: (inout CounterServiceConfiguration) -> Void = { _ in }
  ) throws -> ServiceHarness {
    try ServiceHarness(options: SQLiteVoteStoreOptions(memoryCache: true), adjust)
  }

  static let reads = [
    "/get/app.example/feature1", "/get/feature1", "/get/app.example/missing1",
    "/get/app.example/no", "/info/app.example/feature1", "/info/app.example/missing1",
    "/v1/app.example/feature1", "/v1/app.example/missing1",
    "/get/app.example/feature1?callback=cb", "/get/app.example/feature1?callback=1%3Cx",
  ]

  @Test(arguments: reads)
  func anImmediateAnswerIsTheHandlersAnswer(target: String) async throws {
    let harness = try Self.cachedHarness()
    defer { Task { await harness.tearDown() } }
    _ = await harness.call("/hit/app.example/feature1")
    _ = await harness.call("/hit/feature1")
    let immediate = try #require(harness.service.immediateHandler)
    for method in [HTTPMethod.get, .head] {
      let ordinary = await harness.service.handler(Self.request(target, method: method))
      let fast = try #require(
        immediate(Self.request(target, method: method)), "memory knew nothing of \(target)")
      #expect(fast.status == ordinary.status)
      #expect(fast.body == ordinary.body)
      #expect(
        fast.headers.fields.map { "\($0.name): \($0.value)" }
          == ordinary.headers.fields.map { "\($0.name): \($0.value)" })
    }
  }

  @Test func whatMemoryDoesNotKnowIsPassed() async throws {
    let harness = try Self.cachedHarness()
    defer { Task { await harness.tearDown() } }
    let immediate = try #require(harness.service.immediateHandler)
    #expect(immediate(Self.request("/get/app.example/feature1")) == nil)
    #expect(immediate(Self.request("/hit/app.example/feature1")) == nil)
    #expect(immediate(Self.request("/stats")) == nil)
    _ = await harness.call("/hit/app.example/feature1")
    // Written, so known: and never stale after the write's answer.
    #expect(
      immediate(Self.request("/get/app.example/feature1"))?.body == Array(#"{"value":1}"#.utf8))
    _ = await harness.call("/hit/app.example/feature1")
    #expect(
      immediate(Self.request("/get/app.example/feature1"))?.body == Array(#"{"value":2}"#.utf8))
    #expect(immediate(Self.request("/get/app.example/feature1", method: .post)) == nil)
  }

  @Test func aStoreWithoutMemoryPassesEveryRead() async throws {
    let harness = try ServiceHarness()
    defer { Task { await harness.tearDown() } }
    _ = await harness.call("/hit/app.example/feature1")
    _ = await harness.call("/get/app.example/feature1")
    let immediate = try #require(harness.service.immediateHandler)
    #expect(immediate(Self.request("/get/app.example/feature1")) == nil)
  }

  @Test func readLimitsCountImmediateAnswersOnce() async throws {
    let harness = try Self.cachedHarness { $0.readLimit = .perMinute(6) }
    defer { Task { await harness.tearDown() } }
    _ = await harness.call("/hit/app.example/feature1")
    let immediate = try #require(harness.service.immediateHandler)
    let statuses = (0..<4).map { _ in immediate(Self.request("/get/app.example/feature1"))?.status }
    #expect(statuses == [200, 200, 200, 429])
  }
}
