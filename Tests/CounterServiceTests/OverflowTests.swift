import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// Every count stays within ±(2^53 − 1): numbers past it are refused with a 400 that names
/// the limit, and a write that would leave it is a 409 that says so, never a store error.
@Suite struct OverflowTests {
  static let max = "9007199254740991"
  static let past = "9007199254740992"
  static let admin: HTTPHeaders = ["Authorization": "Bearer \(ServiceHarness.token)"]

  @Test func writesThatWouldLeaveTheRangeAre409AndChangeNothing() async throws {
    let h = try ServiceHarness()
    let overflow =
      #"{"error":"adding 1 to 9007199254740991 would overflow: a count stays within ±9007199254740991; nothing was changed"}"#
    await h.run([
      // The issue's reproduction: a key at the limit with a wide upper bound.
      Step(
        "/create?namespace=ns1&key=top&value=\(Self.max)&update_upperbound=\(Self.max)", 200,
        #"{"namespace":"ns1","key":"top","value":9007199254740991}"#),
      Step("/update/ns1/top?amount=1", 409, overflow),
      Step("/update/ns1/top?amount=\(Self.max)", 409, nil),
      Step("/hit/ns1/top", 409, overflow),
      Step("/get/ns1/top", 200, #"{"value":9007199254740991}"#),
      Step("/update/ns1/top?amount=-1", 200, #"{"value":9007199254740990}"#),
      Step("/hit/ns1/top", 200, #"{"value":9007199254740991}"#),
      // Just under the limit, a large amount that would cross it.
      Step(
        "/create?namespace=ns1&key=near&value=9007199254740000&update_upperbound=\(Self.max)",
        200, nil),
      Step("/update/ns1/near?amount=991", 200, #"{"value":9007199254740991}"#),
      Step("/update/ns1/near?amount=1", 409, overflow),
      // Bounds are still answered first: an amount outside them is countapi's 403.
      Step("/create?namespace=ns1&key=narrow&value=\(Self.max)", 200, nil),
      Step("/update/ns1/narrow?amount=2", 403, #"{"value":9007199254740991}"#),
      Step("/update/ns1/narrow?amount=1", 409, overflow),
    ])
    let v1 = await h.call("/v1/ns1/top/up")
    #expect(v1.status == 409)
    #expect(
      v1.body
        == #"{"code":409,"message":"adding 1 to 9007199254740991 would overflow: a count stays within ±9007199254740991; nothing was changed"}"#
    )
    #expect(v1.headers["Retry-After"] == nil)
    #expect(await h.call("/v1/ns1/top/down").object["count"] as? Int == 9_007_199_254_740_990)
    let metrics = await h.call("/metrics").body
    #expect(metrics.contains("roadmap_store_errors_total 0\n"), "\(metrics)")
    #expect(
      metrics.contains(#"roadmap_http_requests_total{route="/update/:ns/:key",status="409"} 4"#))
    #expect(await h.call("/healthz").status == 200)
    #expect(h.logged.withLock { $0 }.isEmpty)
    await h.tearDown()
  }

  @Test func numbersPastTheRangeAreRefusedWithTheLimit() async throws {
    let h = try ServiceHarness()
    _ = await h.call("/hit/ns1/feature1")
    let amountRule =
      #"{"error":"amount must be an integer from -9007199254740991 to 9007199254740991"}"#
    let valueRule = #"{"error":"value must be an integer from 0 to 9007199254740991"}"#
    await h.run([
      Step("/update/ns1/feature1?amount=\(Self.past)", 400, amountRule),
      Step("/update/ns1/feature1?amount=-\(Self.past)", 400, amountRule),
      Step("/update/ns1/feature1?amount=+\(Self.past)", 400, amountRule),
      Step("/update/ns1/feature1?amount=9223372036854775808", 400, amountRule),
      Step("/update/ns1/feature1?amount=1e3", 400, #"{"error":"amount must be an integer"}"#),
      // Leading zeros are no part of the size: this is 1 (and the next one past the limit).
      Step("/update/ns1/feature1?amount=000000000000000000000000001", 200, #"{"value":2}"#),
      Step("/update/ns1/feature1?amount=-000000000000000000000000001", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=0000000000000\(Self.past)", 400, amountRule),
      Step("/update/ns1/feature1?amount=0000", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=-", 400, #"{"error":"amount must be an integer"}"#),
      Step("/set/ns1/feature1?value=\(Self.past)", 400, valueRule, headers: Self.admin),
      Step(
        "/set/ns1/feature1?value=-\(Self.past)", 400,
        #"{"error":"value must be a non-negative integer"}"#, headers: Self.admin),
      Step("/set/ns1/feature1?value=\(Self.max)", 200, nil, headers: Self.admin),
      Step("/create?namespace=ns1&key=big&value=\(Self.past)", 400, valueRule),
      Step(
        "/create?namespace=ns1&key=big&update_upperbound=\(Self.past)", 400,
        #"{"error":"update_upperbound must be an integer from 0 to 9007199254740991"}"#),
      Step(
        "/create?namespace=ns1&key=big&update_lowerbound=-\(Self.past)", 400,
        #"{"error":"update_lowerbound must be an integer from -9007199254740991 to 0"}"#),
      Step(
        "/create?namespace=ns1&key=big&update_lowerbound=-\(Self.max)&update_upperbound=\(Self.max)",
        200, nil),
      Step("/get/ns1/big", 200, #"{"value":0}"#),
    ])
    let v1 = await h.call("/v1/ns1/feature1/set?count=\(Self.past)", headers: Self.admin)
    #expect(v1.status == 400)
    #expect(
      v1.body == #"{"code":400,"message":"count must be an integer from 0 to 9007199254740991"}"#)
    #expect(await h.call("/get/ns1/feature1").body == #"{"value":9007199254740991}"#)
    await h.tearDown()
  }

  @Test func countsAlreadyPastTheRangeAreReadAndCanBeSetBack() async throws {
    // An import (before import applied the live rules) could store 2^63 - 1.
    guard let h = try await ExtremeValueTests.harness([("huge", .max, .min, .max, 0, 0)])
    else { return }
    await h.run([
      Step("/get/ns1/huge", 200, "{\"value\":\(Int64.max)}"),
      Step("/update/ns1/huge?amount=1", 409, nil),
      Step("/update/ns1/huge?amount=-1", 409, nil),
      Step("/update/ns1/huge?amount=-\(Self.max)", 409, nil),
      Step("/hit/ns1/huge", 409, nil),
      Step("/counts/ns1?keys=huge", 200, "{\"counts\":{\"huge\":\(Int64.max)}}"),
      Step(
        "/set/ns1/huge?value=5", 200, "{\"old_value\":\(Int64.max),\"value\":5}",
        headers: Self.admin),
      Step("/hit/ns1/huge", 200, #"{"value":6}"#),
    ])
    #expect((await h.call("/metrics")).body.contains("roadmap_store_errors_total 0\n"))
    await h.tearDown()
  }
}
