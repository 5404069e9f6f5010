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

  /// What the immediate handler did: its answer (waiting for a deferred one), or nil when it
  /// passed.
  private static func offer(
    _ immediate: HTTPImmediateHandler, _ request: HTTPRequest
  ) async -> HTTPResponse? {
    let box = DeferredAnswer()
    switch immediate(request, HTTPResponder { box.set($0) }) {
    case .response(let response)?: return response
    case .deferred?: return await box.wait()
    case nil: return nil
    }
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
    "/counts/app.example?keys=feature1,missing1,feature1", "/counts/app.example?keys=",
    "/counts/app.example?keys=no", "/counts/no?keys=feature1",
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
        await Self.offer(immediate, Self.request(target, method: method)),
        "memory knew nothing of \(target)")
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
    #expect(await Self.offer(immediate, Self.request("/get/app.example/feature1")) == nil)
    #expect(await Self.offer(immediate, Self.request("/hit/app.example/feature1")) == nil)
    #expect(await Self.offer(immediate, Self.request("/stats")) == nil)
    #expect(await Self.offer(immediate, Self.request("/counts/app.example?keys=feature1")) == nil)
    #expect(await Self.offer(immediate, Self.request("/counts/app.example")) == nil)
    _ = await harness.call("/hit/app.example/feature1")
    // Written, so known: and never stale after the write's answer.
    #expect(
      await Self.offer(immediate, Self.request("/get/app.example/feature1"))?.body
        == Array(#"{"value":1}"#.utf8))
    _ = await harness.call("/hit/app.example/feature1")
    #expect(
      await Self.offer(immediate, Self.request("/get/app.example/feature1"))?.body
        == Array(#"{"value":2}"#.utf8))
    #expect(
      await Self.offer(immediate, Self.request("/get/app.example/feature1", method: .post)) == nil)
  }

  @Test func aStoreWithoutMemoryPassesEveryRead() async throws {
    let harness = try ServiceHarness()
    defer { Task { await harness.tearDown() } }
    _ = await harness.call("/hit/app.example/feature1")
    _ = await harness.call("/get/app.example/feature1")
    let immediate = try #require(harness.service.immediateHandler)
    #expect(await Self.offer(immediate, Self.request("/get/app.example/feature1")) == nil)
  }

  @Test func readLimitsCountImmediateAnswersOnce() async throws {
    let harness = try Self.cachedHarness { $0.readLimit = .perMinute(6) }
    defer { Task { await harness.tearDown() } }
    _ = await harness.call("/hit/app.example/feature1")
    let immediate = try #require(harness.service.immediateHandler)
    var statuses: [Int?] = []
    for _ in 0..<4 {
      statuses.append(
        await Self.offer(immediate, Self.request("/get/app.example/feature1"))?.status)
    }
    #expect(statuses == [200, 200, 200, 429])
  }

  /// Votes handed straight to the writer answer as the ordinary route does, count once per
  /// voter, and are durable before their answer (a plain reader of the file sees them).
  @Test func immediateVotesAnswerAsTheHandlerDoes() async throws {
    let harness = try Self.cachedHarness()
    defer { Task { await harness.tearDown() } }
    let immediate = try #require(harness.service.immediateHandler)
    // Unknown to memory: passed, and the ordinary route answers (and teaches memory).
    #expect(await Self.offer(immediate, Self.request("/hit/app.example/feature1")) == nil)
    #expect(await harness.call("/hit/app.example/feature1").body == #"{"value":1}"#)
    let hit = try #require(await Self.offer(immediate, Self.request("/hit/app.example/feature1")))
    #expect(hit.status == 200 && hit.body == Array(#"{"value":2}"#.utf8))
    let ordinary = await harness.service.handler(Self.request("/hit/app.example/feature1"))
    #expect(hit.headers.fields.map(\.name) == ordinary.headers.fields.map(\.name))
    let plain = try SQLiteVoteStore(directory: harness.directory)
    #expect(try await plain.record(namespace: "app.example", key: "feature1")?.value == 3)
    await plain.close()

    let voter: HTTPHeaders = ["X-Voter-ID": "voter-1"]
    for expected in [4, 4] {
      let vote = try #require(
        await Self.offer(immediate, Self.request("/hit/app.example/feature1", headers: voter)))
      #expect(vote.body == Array(#"{"value":\#(expected)}"#.utf8))
    }
    let down = try #require(
      await Self.offer(immediate, Self.request("/v1/app.example/feature1/down", headers: voter)))
    #expect(String(decoding: down.body, as: UTF8.self).contains(#""count":3,"#))
    let head = try #require(
      await Self.offer(immediate, Self.request("/hit/app.example/feature1", method: .head)))
    #expect(head.body == Array(#"{"value":3}"#.utf8))
    #expect(try await harness.store.record(namespace: "app.example", key: "feature1")?.value == 3)
  }

  @Test func immediateVotesAreRefusedAsTheHandlerRefusesThem() async throws {
    let harness = try Self.cachedHarness { $0.writeLimit = .perMinute(6) }
    defer { Task { await harness.tearDown() } }
    let immediate = try #require(harness.service.immediateHandler)
    _ = await harness.call("/set/app.example/feature1?value=9007199254740991&token=s3cret-token")
    _ = await harness.call("/get/app.example/feature1")
    let overflow = try #require(
      await Self.offer(immediate, Self.request("/hit/app.example/feature1")))
    #expect(overflow.status == 409)
    let badVoter = try #require(
      await Self.offer(
        immediate, Self.request("/hit/app.example/feature1", headers: ["X-Voter-ID": ""])))
    #expect(badVoter.status == 400)
    // The bucket refills (one every 10 s), so keep knocking until the limit answers.
    var statuses: [Int] = []
    while statuses.last != 429 && statuses.count < 20 {
      let answer = try #require(
        await Self.offer(immediate, Self.request("/hit/app.example/feature1")))
      statuses.append(answer.status)
    }
    #expect(statuses.last == 429)
    #expect(Set(statuses).isSubset(of: [409, 429]), "\(statuses)")
    #expect(
      try await harness.store.record(namespace: "app.example", key: "feature1")?.value
        == 9_007_199_254_740_991)
  }

  /// The votes a batch applied are in `/metrics` by the time their answers are: a repeated
  /// vote of one voter and a refused one are not counted.
  @Test func immediateVotesAreCountedInTheMetricsBeforeTheyAreAnswered() async throws {
    let harness = try Self.cachedHarness()
    defer { Task { await harness.tearDown() } }
    let immediate = try #require(harness.service.immediateHandler)
    _ = await harness.call("/hit/app.example/feature1")
    func applied() async -> String? {
      await harness.call("/metrics").body.split(separator: "\n")
        .first { $0.hasPrefix("roadmap_votes_applied_total ") }.map(String.init)
    }
    #expect(await applied() == "roadmap_votes_applied_total 1")
    let asks: [(HTTPRequest, Int, Int)] = [
      (Self.request("/hit/app.example/feature1"), 200, 2),
      (Self.request("/v1/app.example/feature1/up"), 200, 3),
      (Self.request("/hit/app.example/feature1", headers: ["X-Voter-ID": "voter-1"]), 200, 4),
      (Self.request("/hit/app.example/feature1", headers: ["X-Voter-ID": "voter-1"]), 200, 4),
      (Self.request("/v1/app.example/feature1/down"), 200, 5),
      (Self.request("/hit/app.example/feature1", headers: ["X-Voter-ID": ""]), 400, 5),
    ]
    for (request, status, total) in asks {
      let answer = try #require(await Self.offer(immediate, request))
      #expect(answer.status == status, "\(request.target)")
      #expect(await applied() == "roadmap_votes_applied_total \(total)", "\(request.target)")
    }
  }

  /// The voter rules hold on the I/O thread's votes too: a voter id from the header or the
  /// query votes once, a malformed one is refused, and with `requireVoter` an anonymous vote
  /// is refused (403) while one with an id counts; each as the ordinary route answers.
  @Test(arguments: [false, true])
  func immediateVotesFollowTheVoterRules(requireVoter: Bool) async throws {
    let harness = try Self.cachedHarness { $0.requireVoter = requireVoter }
    defer { Task { await harness.tearDown() } }
    let immediate = try #require(harness.service.immediateHandler)
    _ = await harness.call("/get/app.example/feature1")  // memory now knows it (missing)
    let asks: [(HTTPRequest, Int, String)] = [
      (Self.request("/hit/app.example/feature1"), requireVoter ? 403 : 200, "anonymous"),
      (
        Self.request("/hit/app.example/feature1", headers: ["X-Voter-ID": "voter-1"]), 200,
        "header"
      ),
      (
        Self.request("/hit/app.example/feature1", headers: ["X-Voter-ID": "voter-1"]), 200,
        "header again"
      ),
      (Self.request("/hit/app.example/feature1?voter=voter-2"), 200, "query"),
      (Self.request("/hit/app.example/feature1?voter=voter-2"), 200, "query again"),
      (Self.request("/hit/app.example/feature1?voter=bad%20id"), 400, "malformed"),
      (Self.request("/v1/app.example/feature1/up?voter="), 400, "empty"),
    ]
    var values: [String] = []
    for (request, status, what) in asks {
      let answer = try #require(await Self.offer(immediate, request), "\(what)")
      #expect(answer.status == status, "\(what)")
      values.append(String(decoding: answer.body, as: UTF8.self))
    }
    let base = requireVoter ? 0 : 1
    #expect(values[1] == #"{"value":\#(base + 1)}"#)
    #expect(values[2] == #"{"value":\#(base + 1)}"#)
    #expect(values[3] == #"{"value":\#(base + 2)}"#)
    #expect(values[4] == #"{"value":\#(base + 2)}"#)
    if requireVoter { #expect(values[0].contains("refuses anonymous votes")) }
    #expect(
      try await harness.store.record(namespace: "app.example", key: "feature1")?.value
        == Int64(base + 2))
  }

  /// A vote answered after the store closed says the store failed, never "done".
  @Test func anImmediateVoteOnAClosedStoreIsAStoreFailure() async throws {
    let harness = try Self.cachedHarness()
    let immediate = try #require(harness.service.immediateHandler)
    _ = await harness.call("/hit/app.example/feature1")
    await harness.store.close()
    let answer = await Self.offer(immediate, Self.request("/hit/app.example/feature1"))
    // Closed, memory knows nothing: passed to the ordinary route, which answers 503.
    if let answer { #expect(answer.status == 503) }
    #expect(await harness.call("/hit/app.example/feature1").status == 503)
    await harness.tearDown()
  }
}

/// A deferred answer, handed over from the store's writer thread (ImmediateReadTests,
/// CounterCreationLimitTests).
final class DeferredAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var response: HTTPResponse?
  private var waiter: CheckedContinuation<HTTPResponse, Never>?

  func set(_ response: HTTPResponse) {
    lock.lock()
    if let waiter {
      self.waiter = nil
      lock.unlock()
      waiter.resume(returning: response)
      return
    }
    self.response = response
    lock.unlock()
  }

  func wait() async -> HTTPResponse {
    await withCheckedContinuation { continuation in
      lock.lock()
      if let response {
        lock.unlock()
        continuation.resume(returning: response)
        return
      }
      waiter = continuation
      lock.unlock()
    }
  }
}
