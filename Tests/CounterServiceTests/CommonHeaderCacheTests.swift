import Testing

@testable import CounterService
@testable import HTTPServer

/// ``CommonHeaderCache``: the headers it gives are the common headers, field for field and in
/// order, encoded once; it stays bounded whatever paths arrive.
@Suite struct CommonHeaderCacheTests {
  private func plain(_ xPath: String, _ contentType: String, origin: String) -> [String] {
    CounterService.commonHeaders(
      xPath: xPath, origin: origin, after: (name: "Content-Type", value: contentType)
    ).map { "\($0.name): \($0.value)" }
  }

  @Test func givesTheCommonHeadersEncodedOnce() {
    let cache = CommonHeaderCache(origin: "https://app.example")
    let json = "application/json; charset=utf-8"
    let script = "application/javascript; charset=utf-8"
    let cases: [(CommonHeaderCache.XPath, String, String)] = [
      (.counter(namespace: "bench", key: "feature1"), "/bench/feature1", json),
      (.counter(namespace: "bench", key: "feature1"), "/bench/feature1", script),
      (.counter(namespace: "default", key: "feature9"), "/default/feature9", json),
      (.path("/healthz"), "/healthz", json),
    ]
    for (xPath, text, contentType) in cases {
      #expect(xPath.text == text && xPath.byteCount == text.utf8.count)
      let first = cache.headers(xPath, contentType: contentType)
      let again = cache.headers(xPath, contentType: contentType)
      #expect(
        first.fields.map { "\($0.name): \($0.value)" }
          == plain(text, contentType, origin: "https://app.example"))
      #expect(first == again)
      // The second answer reuses the first's encoded form.
      #expect(first.wire != nil && first.wire === again.wire)
    }
    // A path that reads like a counter's X-Path is an entry of its own, with the same value.
    let path = cache.headers(.path("/bench/feature1"), contentType: json)
    #expect(path == cache.headers(.counter(namespace: "bench", key: "feature1"), contentType: json))
    #expect(cache.count == 4)
  }

  @Test func keepsNoLongPathsAndStaysBounded() {
    let cache = CommonHeaderCache(origin: "*")
    let long = String(repeating: "n", count: 200)
    let answer = cache.headers(.counter(namespace: long, key: "k"), contentType: "text/plain")
    #expect(
      answer.fields.map { "\($0.name): \($0.value)" }
        == plain("/\(long)/k", "text/plain", origin: "*"))
    _ = cache.headers(.path("/" + long), contentType: "text/plain")
    #expect(cache.count == 0)
    for n in 0..<(CommonHeaderCache.capacity + 10) {
      _ = cache.headers(.counter(namespace: "ns", key: "key\(n)"), contentType: "text/plain")
    }
    #expect(cache.count <= CommonHeaderCache.capacity)
    #expect(cache.count > 0)
  }

  /// The entry given last is asked first; interleaved counters and content types still get
  /// their own headers.
  @Test func interleavedAnswersGetTheirOwnHeaders() {
    let cache = CommonHeaderCache(origin: "*")
    let asks: [(String, String)] = [
      ("a1b", "json"), ("a1b", "json"), ("c2d", "json"), ("a1b", "script"), ("a1b", "json"),
      ("c2d", "script"), ("c2d", "json"), ("a1b", "script"),
    ]
    for (key, type) in asks {
      let headers = cache.headers(.counter(namespace: "ns1", key: key), contentType: type)
      #expect(headers["X-Path"] == "/ns1/\(key)" && headers["Content-Type"] == type)
    }
    #expect(cache.count == 2)
  }

  /// Through the service: the first answer of a counter and the ones after it (from the
  /// cache) carry the same headers, in the same order.
  @Test func answersCarryTheSameHeadersBeforeAndAfterTheCacheKnowsThem() async throws {
    let h = try ServiceHarness()
    var seen: [[String]] = []
    for target in ["/hit/ns1/feature1", "/hit/ns1/feature1", "/get/ns1/feature1"] {
      let answer = await h.call(target)
      #expect(answer.status == 200)
      seen.append(answer.headers.fields.map { "\($0.name): \($0.value)" })
    }
    #expect(seen[0] == plain("/ns1/feature1", "application/json; charset=utf-8", origin: "*"))
    #expect(seen.allSatisfy { $0 == seen[0] })
    let jsonp = await h.call("/get/ns1/feature1?callback=cb")
    #expect(jsonp.headers["Content-Type"] == "application/javascript; charset=utf-8")
    #expect(jsonp.body == #"/**/cb({"value":2});"#)
    await h.tearDown()
  }
}
