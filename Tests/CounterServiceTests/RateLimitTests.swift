import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// Per-client token buckets: 429 with Retry-After, reads and writes apart, bounded table.
@Suite struct RateLimitTests {
  @Test func writesAreBoundedPerClientWith429AndRetryAfter() async throws {
    let h = try ServiceHarness {
      // One token in 1,000 s: a loaded full run once took 130 s over these calls, and a
      // token refilled by then (0.01 a second) let the fourth vote through.
      $0.writeLimit = RateLimit(burst: 3, perSecond: 0.001)
    }
    for i in 1...3 {
      #expect(await h.call("/hit/ns1/feature1").body == "{\"value\":\(i)}")
    }
    let limited = await h.call("/hit/ns1/feature1")
    #expect(limited.status == 429)
    // The bucket refills by wall clock (0.001 a second), so under load the wait may be shorter.
    let retry = try #require(Int(limited.headers["Retry-After"] ?? ""))
    #expect((1...1000).contains(retry))
    #expect(limited.body == "{\"error\":\"too many requests: retry in \(retry) s\"}")
    #expect(limited.headers["Access-Control-Allow-Origin"] == "*")
    #expect(limited.headers["Connection"] == "close")
    let v1 = await h.call("/v1/ns1/feature1/up")
    #expect(v1.status == 429)
    #expect(v1.headers["Connection"] == "close")
    #expect(v1.object["code"] as? Int == 429)
    // A different path shares the client's bucket; reads have their own.
    #expect(await h.call("/update/ns1/other?amount=1").status == 429)
    #expect(await h.call("/get/ns1/feature1").body == #"{"value":3}"#)
    // Another client is not affected.
    #expect(await h.call("/hit/ns1/feature1", from: "10.0.0.2").body == #"{"value":4}"#)
    await h.tearDown()
  }

  @Test func onlyThe429ClosesTheConnection() async throws {
    let h = try ServiceHarness { $0.readLimit = RateLimit(burst: 1, perSecond: 0.001) }
    let allowed = await h.call("/get/ns1/feature1")
    #expect(allowed.status == 404)
    #expect(allowed.headers["Connection"] == nil)
    let limited = await h.call("/get/ns1/feature1")
    #expect(limited.status == 429)
    #expect(limited.headers["Connection"] == "close")
    #expect(await h.call("/healthz").headers["Connection"] == nil)
    await h.tearDown()
  }

  /// The board API, the live Roadmap JSON and the web board refuse a client over its limit
  /// as the counter routes do: the connection closes after the 429.
  @Test func boardRoutesClose429sToo() async throws {
    let h = try BoardHarness {
      $0.readLimit = RateLimit(burst: 1, perSecond: 0.001)
      // The seed's admin writes come from one address, and draw from its bucket.
      $0.writeLimit = RateLimit(burst: 10, perSecond: 0.001)
    }
    await h.seed()
    let reads = ["/api/v1/demo-app/board", "/roadmap/demo-app.json", "/b/demo-app"]
    for (index, target) in reads.enumerated() {
      let client = "10.0.1.\(index + 1)"
      let first = await h.service.handler(
        HTTPRequest(method: .get, target: target, remoteAddress: client))
      #expect(first.status == 200, "\(target)")
      #expect(first.headers["Connection"] == nil, "\(target)")
      let refused = await h.service.handler(
        HTTPRequest(method: .get, target: target, remoteAddress: client))
      #expect(refused.status == 429, "\(target)")
      #expect(refused.headers["Connection"] == "close", "\(target)")
    }
    let vote = HTTPRequest(
      method: .post, target: "/api/v1/demo-app/features/1/vote",
      headers: ["X-Voter-ID": "voter-1"], remoteAddress: "10.0.2.1")
    var refusedVote = await h.service.handler(vote)
    for _ in 0..<10 where refusedVote.status == 200 {
      #expect(refusedVote.headers["Connection"] == nil)
      refusedVote = await h.service.handler(vote)
    }
    #expect(refusedVote.status == 429)
    #expect(refusedVote.headers["Connection"] == "close")
    await h.tearDown()
  }

  @Test func readsShareOneBucketAcrossPaths() async throws {
    let h = try ServiceHarness { $0.readLimit = RateLimit(burst: 2, perSecond: 0.001) }
    #expect(await h.call("/get/ns1/a11").status == 404)
    #expect(await h.call("/info/ns1/b22").status == 404)
    let limited = await h.call("/counts/ns1?keys=c33")
    #expect(limited.status == 429)
    #expect((Int(limited.headers["Retry-After"] ?? "") ?? 0) > 100)
    #expect(await h.call("/healthz").status == 200)
    #expect(await h.call("/metrics").status == 200)
    await h.tearDown()
  }

  @Test func defaultReadLimitLoadsABoardOfSeveralHundredRows() async throws {
    let h = try ServiceHarness { $0.readLimit = CounterServiceConfiguration().readLimit }
    for i in 0..<500 {
      let answer = await h.call("/get/ns1/feature\(i)")
      #expect(answer.status == 404)
    }
    await h.tearDown()
  }

  @Test func forwardedForCountsOnlyWithTrustProxy() async throws {
    let trusting = try ServiceHarness {
      $0.trustProxy = true
      $0.writeLimit = RateLimit(burst: 1, perSecond: 0.001)
    }
    let a: HTTPHeaders = ["X-Forwarded-For": "198.51.100.7, 203.0.113.1"]
    let b: HTTPHeaders = ["X-Forwarded-For": "203.0.113.2"]
    #expect(await trusting.call("/hit/ns1/feature1", headers: a).status == 200)
    #expect(await trusting.call("/hit/ns1/feature1", headers: b).status == 200)
    #expect(await trusting.call("/hit/ns1/feature1", headers: a).status == 429)
    await trusting.tearDown()

    let plain = try ServiceHarness { $0.writeLimit = RateLimit(burst: 1, perSecond: 0.001) }
    #expect(await plain.call("/hit/ns1/feature1", headers: a).status == 200)
    #expect(await plain.call("/hit/ns1/feature1", headers: b).status == 429)
    await plain.tearDown()
  }

  /// Bug: the buckets were kept per IPv6 address, so a client with a /64 (every home line
  /// and cloud machine) voted without limit by sending each vote from another address of it,
  /// directly or through a trusted proxy. An IPv6 client now counts per /64, as the server's
  /// per-address connection limit counts it.
  @Test func ipv6ClientsCountPerSlash64() async throws {
    let h = try ServiceHarness { $0.writeLimit = RateLimit(burst: 1, perSecond: 0.001) }
    #expect(await h.call("/hit/ns1/feature1", from: "2001:db8:0:1::1").status == 200)
    #expect(await h.call("/hit/ns1/feature1", from: "2001:db8:0:1::2").status == 429)
    #expect(await h.call("/hit/ns1/feature1", from: "2001:db8:0:1:a:b:c:d").status == 429)
    #expect(await h.call("/hit/ns1/feature1", from: "2001:db8:0:2::1").status == 200)
    await h.tearDown()

    let proxied = try ServiceHarness {
      $0.trustProxy = true
      $0.writeLimit = RateLimit(burst: 1, perSecond: 0.001)
    }
    for (index, status) in [200, 429, 429].enumerated() {
      let headers: HTTPHeaders = ["X-Forwarded-For": "2001:db8:7:7::\(index + 1)"]
      #expect(await proxied.call("/hit/ns1/feature1", headers: headers).status == status)
    }
    let other: HTTPHeaders = ["X-Forwarded-For": "[2001:db8:7:8::1]:443"]
    #expect(await proxied.call("/hit/ns1/feature1", headers: other).status == 200)
    await proxied.tearDown()
  }

  /// Bug: with `trustProxy` the last `X-Forwarded-For` entry was taken as it came, spaces and
  /// all: a client whose proxy passed the field on (or a server reached around its proxy)
  /// wrote what it liked at the start of its access-log line (`9.9.9.9 GET /set/… 200`) and
  /// picked a new rate-limit bucket with every spelling. Only a numeric address is taken now,
  /// in its usual form; anything else leaves the socket peer in its place.
  @Test func forwardedForCountsOnlyWhenItIsAnAddress() async throws {
    let h = try ServiceHarness {
      $0.trustProxy = true
      $0.accessLog = true
      $0.writeLimit = RateLimit(burst: 1, perSecond: 0.001)
    }
    let forged: HTTPHeaders = ["X-Forwarded-For": "1.1.1.1, 9.9.9.9 GET /set/ns1/k?value=9 200"]
    #expect(await h.call("/hit/ns1/feature1", headers: forged).status == 200)
    let unknown: HTTPHeaders = ["X-Forwarded-For": "unknown"]
    #expect(await h.call("/hit/ns1/feature1", headers: unknown).status == 429)
    let spelled: HTTPHeaders = ["X-Forwarded-For": "198.51.100.7:8080"]
    #expect(await h.call("/hit/ns1/feature1", headers: spelled).status == 200)
    let again: HTTPHeaders = ["X-Forwarded-For": " 198.51.100.7"]
    #expect(await h.call("/hit/ns1/feature1", headers: again).status == 429)
    let logged = h.logged.withLock { $0 }
    #expect(logged.count == 4)
    #expect(logged.first?.hasPrefix("10.0.0.1 GET /hit/ns1/feature1 200 ") == true)
    #expect(logged.last?.hasPrefix("198.51.100.7 GET /hit/ns1/feature1 429 ") == true)
    #expect(!logged.joined().contains("9.9.9.9"))
    await h.tearDown()
  }

  @Test func numericAddresses() {
    #expect(ClientAddress.numeric("192.0.2.7") == "192.0.2.7")
    #expect(ClientAddress.numeric(" 192.0.2.7:443 ") == "192.0.2.7")
    #expect(ClientAddress.numeric("2001:DB8:0:0::1") == "2001:db8::1")
    #expect(ClientAddress.numeric("[2001:db8::1]:8080") == "2001:db8::1")
    #expect(ClientAddress.numeric("[2001:db8::1]") == "2001:db8::1")
    for text in [
      "", "unknown", "example.com", "192.0.2.7 x", "192.0.2.7:", "192.0.2.7:123456",
      "[2001:db8::1", "[2001:db8::1]x", "\u{1B}[2J", "1.2.3.4.5", "_hidden",
    ] {
      #expect(ClientAddress.numeric(text) == nil, "\(text)")
    }
    #expect(ClientAddress.limitKey("2001:db8:0:1::5") == "20010db800000001::/64")
    #expect(ClientAddress.limitKey("::ffff:192.0.2.7") == "192.0.2.7")
    #expect(ClientAddress.limitKey("192.0.2.7") == "192.0.2.7")
  }

  @Test func limiterRefillsAndKeepsItsTableBounded() {
    let limiter = RateLimiter(
      reads: RateLimit(burst: 2, perSecond: 1), writes: .unlimited, maxClients: 10)
    #expect(limiter.take(client: "a", kind: .read, now: 0) == nil)
    #expect(limiter.take(client: "a", kind: .read, now: 0) == nil)
    #expect(limiter.take(client: "a", kind: .read, now: 0) == 1)
    #expect(limiter.take(client: "a", kind: .read, now: 1.0) == nil)
    #expect(limiter.take(client: "a", kind: .write, now: 1.0) == nil)
    for i in 0..<1000 {
      _ = limiter.take(client: "c\(i)", kind: .read, now: 2 + Double(i) / 1000)
    }
    #expect(limiter.tableSizes.reads <= 10)
    #expect(limiter.tableSizes.writes == 0)
  }

  @Test func aVerySlowRefillNeverTraps() {
    let limiter = RateLimiter(
      reads: RateLimit(burst: 1, perSecond: 1e-300), writes: .unlimited, maxClients: 4)
    #expect(limiter.take(client: "a", kind: .read, now: 0) == nil)
    #expect(limiter.take(client: "a", kind: .read, now: 0) == 86_400 * 365)
  }

  @Test func perMinuteLimits() {
    #expect(RateLimit.perMinute(0).isUnlimited)
    #expect(RateLimit.perMinute(60) == RateLimit(burst: 30, perSecond: 1))
    #expect(RateLimit.perMinute(1) == RateLimit(burst: 1, perSecond: 1.0 / 60))
  }
}
