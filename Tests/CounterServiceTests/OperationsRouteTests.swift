import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// Batch counts, health, metrics, CORS, JSONP, methods and store failures.
@Suite struct OperationsRouteTests {
  @Test func batchCountsTable() async throws {
    let h = try ServiceHarness { $0.maxBatchKeys = 4 }
    _ = await h.call("/hit/ns1/feature1")
    _ = await h.call("/hit/ns1/feature1")
    _ = await h.call("/hit/ns1/feature3")
    await h.run([
      Step(
        "/counts/ns1?keys=feature1,feature2,feature3", 200,
        #"{"counts":{"feature1":2,"feature2":0,"feature3":1}}"#),
      Step(
        "/counts/ns1?keys=feature3,feature1,feature3", 200,
        #"{"counts":{"feature3":1,"feature1":2}}"#),
      Step("/counts/ns1?keys=", 200, #"{"counts":{}}"#),
      Step("/counts/other?keys=feature1", 200, #"{"counts":{"feature1":0}}"#),
      Step("/counts/ns1", 200, #"{"counts":{"feature1":2,"feature3":1},"next":null}"#),
      Step(
        "/counts/ns1?keys=k1a,k2a,k3a,k4a,k5a", 400,
        #"{"error":"too many keys: at most 4 per request"}"#),
      Step("/counts/ns1?keys=ok1,no", 400, nil),
      Step("/counts/n?keys=ok1", 400, nil),
    ])
    await h.tearDown()
  }

  @Test func healthAndMetrics() async throws {
    let h = try ServiceHarness()
    await h.run([Step("/healthz", 200, #"{"status":"ok"}"#)])
    _ = await h.call("/get/ns1/feature1")
    _ = await h.call("/hit/ns1/feature1")
    let metrics = await h.call("/metrics")
    #expect(metrics.status == 200)
    #expect(metrics.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
    let text = metrics.body
    #expect(text.contains(#"roadmap_http_requests_total{route="/get/:ns/:key",status="404"} 1"#))
    #expect(text.contains(#"roadmap_http_requests_total{route="/hit/:ns/:key",status="200"} 1"#))
    #expect(text.contains("roadmap_votes_applied_total 1\n"))
    #expect(text.contains("roadmap_store_errors_total 0\n"))
    #expect(text.contains("# TYPE roadmap_http_request_duration_seconds histogram"))
    #expect(text.contains(#"roadmap_http_request_duration_seconds_bucket{le="+Inf"} 3"#))
    #expect(text.contains("roadmap_http_request_duration_seconds_count 3\n"))
    await h.tearDown()
  }

  @Test func storeFailuresAre503WithABodyAndALogLine() async throws {
    let h = try ServiceHarness { $0.storeErrorLogInterval = 0 }
    _ = await h.call("/hit/ns1/feature1")
    await h.store.close()
    // A write's answer says nothing was changed; a read's (a HEAD on a writing route is its
    // read) says only what failed, since a read changes nothing either way.
    for (target, method, read) in [
      ("/get/ns1/feature1", HTTPMethod.get, true), ("/hit/ns1/feature1", .get, false),
      ("/update/ns1/feature1?amount=-1", .get, false), ("/info/ns1/feature1", .get, true),
      ("/stats", .get, true), ("/counts/ns1?keys=feature1", .get, true),
      ("/create?namespace=ns1&key=abc", .get, false), ("/hit/ns1/feature1", .head, true),
    ] {
      let answer = await h.call(target, method: method)
      #expect(answer.status == 503, "\(target)")
      if method == .get {
        #expect(
          answer.body
            == (read
              ? #"{"error":"the vote store is unavailable"}"#
              : #"{"error":"the vote store is unavailable; nothing was changed"}"#),
          "\(target)")
      }
      #expect(answer.headers["Retry-After"] == "1")
      #expect(answer.headers["Access-Control-Allow-Origin"] == "*")
    }
    let v1 = await h.call("/v1/ns1/feature1/up")
    #expect(v1.status == 503)
    #expect(
      v1.body == #"{"code":503,"message":"the vote store is unavailable; nothing was changed"}"#)
    let v1Read = await h.call("/v1/ns1/feature1")
    #expect(v1Read.status == 503)
    #expect(v1Read.body == #"{"code":503,"message":"the vote store is unavailable"}"#)
    let health = await h.call("/healthz")
    #expect(health.status == 503)
    #expect(health.object["status"] as? String == "unavailable")
    let logged = h.logged.withLock { $0 }
    #expect(
      logged.contains {
        $0.contains("store error on GET /hit/ns1/feature1") && $0.contains("closed")
      })
    #expect(logged.contains { $0.hasPrefix("health check failed") })
    #expect((await h.call("/metrics")).body.contains("roadmap_store_errors_total 11\n"))
    try? FileManager.default.removeItem(at: h.directory)
  }

  @Test func corsAndXPathOnEveryAnswer() async throws {
    let h = try ServiceHarness()
    for (target, status) in [
      ("/get/ns1/feature1", 404), ("/hit/ns1/feature1", 200), ("/get/x", 400),
      ("/nowhere/at/all", 404), ("/stats", 200), ("/metrics", 200),
    ] {
      let answer = await h.call(target)
      #expect(answer.status == status, "\(target)")
      #expect(answer.headers["Access-Control-Allow-Origin"] == "*", "\(target)")
      #expect(answer.headers["X-Path"] != nil, "\(target)")
    }
    #expect(await h.call("/get/ns1/feature1").headers["X-Path"] == "/ns1/feature1")
    #expect(await h.call("/nowhere").body == #"{"error":"not found"}"#)
    let post = await h.call("/hit/ns1/feature1", method: .post)
    #expect(post.status == 405)
    #expect(post.headers["Allow"] == "GET, HEAD, OPTIONS")
    #expect(post.headers["Access-Control-Allow-Origin"] == "*")
    let options = await h.call("/hit/ns1/feature1", method: .options)
    #expect(options.status == 204)
    #expect(options.body.isEmpty)
    #expect(options.headers["Access-Control-Allow-Headers"]?.contains("X-Voter-ID") == true)
    #expect(options.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS")
    #expect(await h.call("/get/ns1/feature1").body == #"{"value":1}"#)
    await h.tearDown()
  }

  @Test func corsOriginIsConfigurable() async throws {
    let h = try ServiceHarness { $0.corsOrigin = "https://example.com" }
    let answer = await h.call("/get/ns1/feature1")
    #expect(answer.headers["Access-Control-Allow-Origin"] == "https://example.com")
    await h.tearDown()
  }

  @Test func jsonpWrapsValidCallbacksAndRefusesOthers() async throws {
    let h = try ServiceHarness()
    let hit = await h.call("/hit/ns1/feature1?callback=cb_1")
    #expect(hit.body == #"/**/cb_1({"value":1});"#)
    #expect(hit.headers["Content-Type"] == "application/javascript; charset=utf-8")
    // A browser does not run a script answered with an error status: JSONP answers are
    // always 200 (countapi's "JSONP requests will never fail"), the status in the body.
    let missing = await h.call("/get/ns1/none1?callback=app.votes.$done")
    #expect(missing.status == 200)
    #expect(missing.body == #"/**/app.votes.$done({"status":404,"value":null});"#)
    let refused = await h.call("/update/ns1/feature1?amount=5&callback=cb")
    #expect(refused.status == 200)
    #expect(refused.body.hasPrefix(#"/**/cb({"status":403,"#), "\(refused.body)")
    let v1Missing = await h.call("/v1/ns1/none1?callback=cb")
    #expect(v1Missing.status == 200)
    #expect(v1Missing.body == #"/**/cb({"status":400,"code":400,"message":"record not found"});"#)
    #expect(
      CounterService.jsonp(.json("{}", status: 500), callback: "cb").body
        == #"/**/cb({"status":500});"#)
    for bad in ["alert(1)", "a..b", "1abc", ".x", "x.", "", String(repeating: "c", count: 65)] {
      let answer = await h.call(
        "/hit/ns1/feature1?callback=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
      )
      #expect(answer.status == 400, "\(bad)")
      #expect(answer.body.hasPrefix(#"{"error":"invalid callback"#), "\(bad)")
    }
    #expect(await h.call("/get/ns1/feature1").body == #"{"value":1}"#)
    let v1 = await h.call("/v1/ns1/feature1?callback=cb")
    #expect(v1.body.hasPrefix("/**/cb({\"id\":"))
    await h.tearDown()
  }
}

/// A store that runs out of space: writes that were not kept are never acknowledged.
@Suite struct FullStoreTests {
  @Test func fullDatabaseAnswers503AndAcknowledgesOnlyWhatWasKept() async throws {
    let h = try ServiceHarness(options: SQLiteVoteStoreOptions(maximumPageCount: 22))  // 10: boards
    var acknowledged: [String] = []
    var refused = 0
    for i in 0..<3000 {
      let key = "feature-\(i)-" + String(repeating: "x", count: 40)
      let answer = await h.call("/hit/ns1/\(key)")
      if answer.status == 200 {
        acknowledged.append(key)
      } else {
        #expect(answer.status == 503)
        #expect(answer.body == #"{"error":"the vote store is unavailable; nothing was changed"}"#)
        refused += 1
        if refused == 3 { break }
      }
    }
    #expect(refused == 3)
    #expect(!acknowledged.isEmpty)
    for key in acknowledged.suffix(20) {
      #expect(await h.call("/get/ns1/\(key)").body == #"{"value":1}"#)
    }
    #expect(h.logged.withLock { $0 }.contains { $0.contains("full") })
    await h.tearDown()
  }
}
