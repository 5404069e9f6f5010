import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// A batch of votes answered together (``VoteBatcher``) answers each vote exactly as the
/// general path (``CounterService/complete(_:_:callback:route:start:routes:)``) answers it
/// alone: status, every header field, body, JSONP wrapping, and the same metrics and log
/// lines.
@Suite struct VoteBatcherTests {
  static let ns = "app.example"

  /// One vote of a batch: its route, target, path parameters, dialect and answer.
  struct Vote {
    var route: String
    var target: String
    var parameters: [String: String]
    var dialect: Dialect
    var answer: VoteAnswer
    var delta: Int64

    var namespace: String { parameters["ns"] ?? CounterRoutes.defaultNamespace }
    var key: String { parameters["key"] ?? parameters["name"] ?? "" }
  }

  static let votes: [Vote] = [
    hit("/hit/app.example/feature1", ["ns": ns, "key": "feature1"]),
    hit("/hit/app.example/feature1", ["ns": ns, "key": "feature1"]),
    hit("/hit/app.example/feature1?callback=cb", ["ns": ns, "key": "feature1"]),
    hit("/hit/app.example/feature2", ["ns": ns, "key": "feature2"]),
    hit("/hit/app.example/feature1", ["ns": ns, "key": "feature1"]),
    Vote(
      route: "/hit/:key", target: "/hit/feature1", parameters: ["key": "feature1"],
      dialect: .countapi, answer: .countapiValue, delta: 1),
    step("/v1/app.example/feature1/up", "feature1", up: true),
    step("/v1/app.example/feature1/up?callback=app.votes.done", "feature1", up: true),
    step("/v1/app.example/feature1/down", "feature1", up: false),
    // Not there: a step down creates it at 0, as counterapi's server did.
    step("/v1/app.example/missing9/down", "missing9", up: false),
    step("/v1/app.example/missing9/down?callback=cb", "missing9", up: false),
  ]

  static func hit(_ target: String, _ parameters: [String: String]) -> Vote {
    Vote(
      route: "/hit/:ns/:key", target: target, parameters: parameters, dialect: .countapi,
      answer: .countapiValue, delta: 1)
  }

  static func step(_ target: String, _ name: String, up: Bool) -> Vote {
    Vote(
      route: up ? "/v1/:ns/:name/up" : "/v1/:ns/:name/down", target: target,
      parameters: ["ns": ns, "name": name], dialect: .counterapi, answer: .counterapiRow,
      delta: up ? 1 : -1)
  }

  /// The answers a responder was given, by vote.
  final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Int: HTTPResponse] = [:]

    func set(_ index: Int, _ response: HTTPResponse) {
      lock.withLock { answers[index] = response }
    }

    subscript(index: Int) -> HTTPResponse? { lock.withLock { answers[index] } }
    var count: Int { lock.withLock { answers.count } }
  }

  private static func fields(_ response: HTTPResponse?) -> [String] {
    response?.headers.fields.map { "\($0.name): \($0.value)" } ?? []
  }

  /// A store, the routes over it, the batch's pending votes and its mutations.
  private static func batch(
    _ votes: [Vote], routes: CounterRoutes, answers: Answers
  ) -> ([VoteBatcher.Pending], [CounterMutation]) {
    var pending: [VoteBatcher.Pending] = []
    var mutations: [CounterMutation] = []
    for (index, vote) in votes.enumerated() {
      var request = HTTPRequest(method: .get, target: vote.target, remoteAddress: "10.0.0.1")
      request.pathParameters = vote.parameters
      pending.append(
        VoteBatcher.Pending(
          request: request, route: vote.route, dialect: vote.dialect,
          callback: request.query("callback"), start: RateLimiter.now(), answer: vote.answer,
          responder: HTTPResponder { answers.set(index, $0) }))
      mutations.append(
        CounterMutation(
          namespace: vote.namespace, key: vote.key, delta: vote.delta,
          createIfMissing: routes.voteCreation(vote.namespace, vote.key)))
    }
    return (pending, mutations)
  }

  private static func submitted(
    _ store: some VoteStore, _ mutations: [CounterMutation]
  ) async -> [Result<MutationResult, VoteStoreError>] {
    await withCheckedContinuation { continuation in
      store.submitBatch(mutations) { continuation.resume(returning: $0) }
    }
  }

  /// The lines of `/metrics` that count requests and votes (the latencies differ).
  private static func counted(_ metrics: ServiceMetrics) -> [String] {
    metrics.prometheusText().split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("roadmap_http_requests_total{") || $0.hasPrefix("roadmap_votes_applied_total ")
        || $0.hasPrefix("roadmap_http_request_duration_seconds_count ")
        || $0.hasPrefix("roadmap_store_errors_total ")
    }
  }

  @Test(arguments: [false, true])
  func aBatchAnswersEachVoteAsItWouldBeAnsweredAlone(accessLog: Bool) async throws {
    let harness = try ServiceHarness(options: SQLiteVoteStoreOptions(memoryCache: true))
    defer { Task { await harness.tearDown() } }
    let logged = Locked<[String]>([])
    var configuration = ServiceHarness.configuration { $0.accessLog = accessLog }
    configuration.log = { line in logged.withLock { $0.append(line) } }
    let routes = CounterRoutes(
      store: harness.store, configuration: configuration, metrics: ServiceMetrics())
    let alone = CounterRoutes(
      store: harness.store, configuration: configuration, metrics: ServiceMetrics())
    let answers = Answers()
    let (pending, mutations) = Self.batch(Self.votes, routes: routes, answers: answers)
    let results = await Self.submitted(harness.store, mutations)
    try #require(results.count == Self.votes.count)

    VoteBatcher.answer(pending, mutations, results, routes: routes)
    #expect(answers.count == Self.votes.count)
    let batchLines = logged.withLock { $0 }
    var applied: Int64 = 0
    for (index, vote) in pending.enumerated() {
      let outcome = try results[index].get()
      if outcome.outcome == .applied { applied += 1 }
      let expected = CounterService.complete(
        vote.request, vote.answer.reply(outcome), callback: vote.callback, route: vote.route,
        start: vote.start, routes: alone)
      let got = answers[index]
      #expect(got?.status == expected.status, "\(vote.request.target)")
      #expect(Self.fields(got) == Self.fields(expected), "\(vote.request.target)")
      #expect(got?.body == expected.body, "\(vote.request.target)")
    }
    // What the answers say, spelled out for a few (the running counts, the wrapping).
    #expect(answers[0]?.body == Array(#"{"value":1}"#.utf8))
    #expect(answers[2]?.body == Array(#"/**/cb({"value":3});"#.utf8))
    #expect(answers[2].flatMap { $0.headers["Content-Type"] } == CounterService.javascriptType)
    #expect(answers[3]?.body == Array(#"{"value":1}"#.utf8))
    #expect(answers[5]?.headers["X-Path"] == "/default/feature1")
    #expect(answers[9]?.status == 200)
    #expect(
      answers[9].map { String(decoding: $0.body, as: UTF8.self) }?.contains(#""count":0,"#) == true)
    #expect(answers[10]?.headers["Content-Type"] == CounterService.javascriptType)

    // Counted alike: each route and status, and the votes the store applied.
    #expect(applied == 9)
    alone.metrics.recordVotesApplied(applied)
    #expect(Self.counted(routes.metrics) == Self.counted(alone.metrics))
    #expect(
      Self.counted(routes.metrics).contains(
        #"roadmap_http_requests_total{route="/hit/:ns/:key",status="200"} 5"#))
    // Logged alike: with an access log, one line per vote, in order.
    let aloneLines = Array(logged.withLock { $0 }.dropFirst(batchLines.count))
    #expect(batchLines.count == (accessLog ? Self.votes.count : 0))
    #expect(
      batchLines.map {
        $0.replacingOccurrences(of: #" [0-9.]+ms$"#, with: "", options: .regularExpression)
      }
        == aloneLines.map {
          $0.replacingOccurrences(of: #" [0-9.]+ms$"#, with: "", options: .regularExpression)
        })
  }

  /// A vote that failed in a batch is answered alone with the store failure, and the others
  /// with their own results; the failure is counted and logged.
  @Test func aFailedVoteOfABatchAnswersAloneAndTheOthersWithTheirResults() async throws {
    let harness = try ServiceHarness(options: SQLiteVoteStoreOptions(memoryCache: true))
    defer { Task { await harness.tearDown() } }
    let logged = Locked<[String]>([])
    var configuration = ServiceHarness.configuration()
    configuration.log = { line in logged.withLock { $0.append(line) } }
    let routes = CounterRoutes(
      store: harness.store, configuration: configuration, metrics: ServiceMetrics())
    let answers = Answers()
    let votes = Array(Self.votes.prefix(3))
    let (pending, mutations) = Self.batch(votes, routes: routes, answers: answers)
    var results = await Self.submitted(harness.store, mutations)
    results[1] = .failure(VoteStoreError(.io, "disk I/O error"))
    VoteBatcher.answer(pending, mutations, results, routes: routes)
    #expect(answers[0]?.status == 200 && answers[0]?.body == Array(#"{"value":1}"#.utf8))
    #expect(answers[1]?.status == 503)
    #expect(answers[2]?.body == Array(#"/**/cb({"value":3});"#.utf8))
    let counted = Self.counted(routes.metrics)
    #expect(counted.contains(#"roadmap_http_requests_total{route="/hit/:ns/:key",status="200"} 2"#))
    #expect(counted.contains(#"roadmap_http_requests_total{route="/hit/:ns/:key",status="503"} 1"#))
    #expect(counted.contains("roadmap_votes_applied_total 2"))
    #expect(counted.contains("roadmap_store_errors_total 1"))
    #expect(logged.withLock { $0 }.contains { $0.contains("disk I/O error") })

    // Fewer results than votes (a store that lost some): the rest are store failures too.
    let short = Answers()
    let (others, more) = Self.batch(votes, routes: routes, answers: short)
    VoteBatcher.answer(others, more, Array(results.prefix(1)), routes: routes)
    #expect(short[0]?.status == 200)
    #expect(short[1]?.status == 503)
    // JSONP answers are 200, the failure's status in the body (and in the metrics).
    #expect(short[2]?.status == 200)
    #expect(
      short[2].map { String(decoding: $0.body, as: UTF8.self) }?.hasPrefix(
        #"/**/cb({"status":503,"#) == true)
    #expect(
      Self.counted(routes.metrics).contains(
        #"roadmap_http_requests_total{route="/hit/:ns/:key",status="503"} 3"#))
  }

  /// The bytes of a countapi value are `String(value)`'s, for every size and sign.
  @Test func decimalBytesAreTheStringsDigits() {
    var values: [Int64] = [
      0, 1, -1, 9, 10, -10, 99, 100, CounterLimits.maximum, -CounterLimits.maximum,
    ]
    values += [.max, .min, .max - 1, .min + 1]
    var power: Int64 = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -power]
    }
    for value in values {
      var bytes: [UInt8] = [0x7B]
      JSONText.appendDecimal(value, to: &bytes)
      #expect(bytes == [0x7B] + Array(String(value).utf8), "\(value)")
    }
  }
}
