import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// How a thrown error becomes an answer: each error carries its own status and body.
@Suite struct ErrorMappingTests {
  struct Surprise: Error, CustomStringConvertible {
    var description: String { "a surprise nobody planned for" }
  }

  /// One thrown error and the answer expected in each dialect.
  struct Mapping: Sendable, CustomTestStringConvertible {
    var error: any Error & Sendable
    var status: Int
    var countapi: String
    var counterapi: String
    var retryAfter: String?
    var storeError: Bool
    var testDescription: String { "\(error) → \(status)" }
  }

  static let mappings: [Mapping] = [
    Mapping(
      error: VoteStoreError(.full, "database or disk is full"), status: 503,
      countapi: #"{"error":"the vote store is unavailable; nothing was changed"}"#,
      counterapi: #"{"code":503,"message":"the vote store is unavailable; nothing was changed"}"#,
      retryAfter: "1", storeError: true),
    Mapping(
      error: VoteStoreError.closed, status: 503,
      countapi: #"{"error":"the vote store is unavailable; nothing was changed"}"#,
      counterapi: #"{"code":503,"message":"the vote store is unavailable; nothing was changed"}"#,
      retryAfter: "1", storeError: true),
    Mapping(
      error: VoteStoreError(.invalid, "voter ids are at most 128 characters"), status: 400,
      countapi:
        #"{"error":"the write was refused: voter ids are at most 128 characters; nothing was changed"}"#,
      counterapi:
        #"{"code":400,"message":"the write was refused: voter ids are at most 128 characters; nothing was changed"}"#,
      retryAfter: nil, storeError: false),
    Mapping(
      error: VoteStoreError.outOfRange("the value 9007199254740992 is outside ±9007199254740991"),
      status: 409,
      countapi:
        #"{"error":"the write was refused: the value 9007199254740992 is outside ±9007199254740991; nothing was changed"}"#,
      counterapi:
        #"{"code":409,"message":"the write was refused: the value 9007199254740992 is outside ±9007199254740991; nothing was changed"}"#,
      retryAfter: nil, storeError: false),
    Mapping(
      error: VoteStoreError(.timedOut, "no answer from PostgreSQL within 5 s"), status: 503,
      countapi:
        #"{"error":"the vote store did not answer in time; the change may or may not have been made"}"#,
      counterapi:
        #"{"code":503,"message":"the vote store did not answer in time; the change may or may not have been made"}"#,
      retryAfter: "1", storeError: true),
    Mapping(
      error: VoteStoreError(.outcomeUnknown, "PostgreSQL connection lost: server closed"),
      status: 503,
      countapi:
        #"{"error":"the vote store lost its database connection during the write; the change may or may not have been made"}"#,
      counterapi:
        #"{"code":503,"message":"the vote store lost its database connection during the write; the change may or may not have been made"}"#,
      retryAfter: "1", storeError: true),
    Mapping(
      error: VoteStoreError(.notDurable, "cannot sync the write-ahead log: EIO"), status: 503,
      countapi:
        #"{"error":"the vote store could not make the change durable; it may or may not have been made"}"#,
      counterapi:
        #"{"code":503,"message":"the vote store could not make the change durable; it may or may not have been made"}"#,
      retryAfter: "1", storeError: true),
    Mapping(
      error: ServiceError.wouldLeaveRange(value: 9_007_199_254_740_991, amount: 1), status: 409,
      countapi:
        #"{"error":"adding 1 to 9007199254740991 would overflow: a count stays within ±9007199254740991; nothing was changed"}"#,
      counterapi:
        #"{"code":409,"message":"adding 1 to 9007199254740991 would overflow: a count stays within ±9007199254740991; nothing was changed"}"#,
      retryAfter: nil, storeError: false),
    Mapping(
      error: ServiceError.outOfRange("value", must: "an integer from 0 to 9007199254740991"),
      status: 400, countapi: #"{"error":"value must be an integer from 0 to 9007199254740991"}"#,
      counterapi: #"{"code":400,"message":"value must be an integer from 0 to 9007199254740991"}"#,
      retryAfter: nil, storeError: false),
    Mapping(
      error: Surprise(), status: 500, countapi: #"{"error":"internal server error"}"#,
      counterapi: #"{"code":500,"message":"internal server error"}"#, retryAfter: nil,
      storeError: false),
  ]

  @Test(arguments: mappings)
  func eachErrorCarriesItsStatusAndBody(mapping: Mapping) async throws {
    let h = try ServiceHarness()
    let routes = CounterRoutes(
      store: h.store, configuration: h.service.configuration, metrics: h.service.metrics)
    let request = HTTPRequest(method: .get, target: "/hit/ns1/feature1", remoteAddress: "10.0.0.1")
    for (dialect, body) in [
      (Dialect.countapi, mapping.countapi), (.counterapi, mapping.counterapi),
    ] {
      let reply = CounterService.answer(mapping.error, request, dialect: dialect, routes: routes)
      #expect(reply.status == mapping.status)
      #expect(reply.body == body)
      #expect(reply.headers.first { $0.name == "Retry-After" }?.value == mapping.retryAfter)
    }
    let metrics = await h.call("/metrics")
    #expect(
      metrics.body.contains("roadmap_store_errors_total \(mapping.storeError ? 2 : 0)\n"),
      "\(metrics.body)")
    let logged = h.logged.withLock { $0 }
    switch mapping.status {
    case 500:
      #expect(
        logged.contains {
          $0.contains("unexpected error on GET /hit/ns1/feature1")
            && $0.contains("a surprise nobody planned for")
        })
    case 503: #expect(logged.contains { $0.contains("store error on GET /hit/ns1/feature1") })
    default: #expect(logged.isEmpty, "\(logged)")
    }
    await h.tearDown()
  }

  @Test func aThrownReplyIsAnsweredAsItIs() {
    let reply = Reply.json(#"{"value":7}"#, status: 418)
    let answer = ServiceError.answer(for: reply).reply(in: .counterapi)
    #expect(answer.status == 418)
    #expect(answer.body == #"{"value":7}"#)
  }

  @Test func aWriteTheStoreRefusesIsA409NotAnOutage() async throws {
    // A count at 2^63 - 1, as an unvalidated import could leave it: the next increment
    // overflows Int64 in the store.
    let h = try ServiceHarness()
    let record = CounterRecord(
      id: 1, namespace: "ns1", key: "huge1", value: Int64.max, enableReset: false,
      updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0)
    do {
      _ = try await h.store.importAll(
        VoteExport(counters: [.init(record: record, voters: [])]), replace: false)
    } catch {
      // The store refuses to hold such a count at all: the other way to the same end.
      #expect(error.isRefusal, "\(error)")
      await h.tearDown()
      return
    }
    for target in ["/hit/ns1/huge1", "/update/ns1/huge1?amount=1", "/v1/ns1/huge1/up"] {
      let answer = await h.call(target)
      #expect(answer.status == 409, "\(target): \(answer.body)")
      #expect(answer.body.contains("overflow"), "\(target): \(answer.body)")
      #expect(answer.headers["Retry-After"] == nil)
    }
    #expect(await h.call("/get/ns1/huge1").body == "{\"value\":\(Int64.max)}")
    #expect((await h.call("/metrics")).body.contains("roadmap_store_errors_total 0\n"))
    #expect(await h.call("/healthz").status == 200)
    await h.tearDown()
  }
}
