import Testing

@testable import CounterService

/// ``ServiceMetrics`` counts every answer by route and status exactly, however runs of one
/// kind and others interleave, and whenever the counts are read.
@Suite struct ServiceMetricsTests {
  private func counts(_ metrics: ServiceMetrics) -> [String: Int] {
    var counts: [String: Int] = [:]
    for line in metrics.prometheusText().split(separator: "\n")
    where line.hasPrefix("roadmap_http_requests_total{") {
      let parts = line.split(separator: " ")
      counts[String(parts[0])] = Int(parts[1])
    }
    return counts
  }

  private func key(_ route: String, _ status: Int) -> String {
    "roadmap_http_requests_total{route=\"\(route)\",status=\"\(status)\"}"
  }

  /// Bug (audit of `serve`, defect 5): a store error whose database message ran over
  /// several lines (libpq's "\tIs the server running…", "DETAIL: …") put them into serve's
  /// log as lines of their own. Each store error line is now one line.
  @Test func aStoreErrorIsLoggedOnOneLine() {
    let metrics = ServiceMetrics()
    let lines = metrics.recordStoreError(
      "store error on GET /hit/a/b: io: connection to server failed: No such file\n"
        + "\tIs the server running locally?\nDETAIL:  more\n")
    #expect(
      lines == [
        "store error on GET /hit/a/b: io: connection to server failed: No such file "
          + "Is the server running locally? DETAIL:  more"
      ])
  }

  @Test func runsAndInterleavedAnswersAreCountedExactly() {
    let metrics = ServiceMetrics()
    let sequence: [(String, Int)] =
      Array(repeating: ("/hit/:ns/:key", 200), count: 25) + [("/hit/:ns/:key", 429)]
      + Array(repeating: ("/get/:ns/:key", 200), count: 3) + [("/hit/:ns/:key", 200)]
      + [("/get/:ns/:key", 404), ("/get/:ns/:key", 200)]
    var expected: [String: Int] = [:]
    for (index, (route, status)) in sequence.enumerated() {
      metrics.recordRequest(route: route, status: status, seconds: 0.001)
      expected[key(route, status), default: 0] += 1
      // Read in the middle of runs too: what was counted so far, nothing more or less.
      if index % 7 == 0 { #expect(counts(metrics) == expected) }
    }
    #expect(counts(metrics) == expected)
    #expect(expected[key("/hit/:ns/:key", 200)] == 26)
    #expect(metrics.totalRequests == Int64(sequence.count))
    #expect(metrics.prometheusText().contains("roadmap_rate_limited_total 1\n"))
    metrics.recordRequest(route: "/get/:ns/:key", status: 200, seconds: 0.001)
    #expect(counts(metrics)[key("/get/:ns/:key", 200)] == 5)
  }
}
