/// Request, vote and error counts for `/metrics` and `/stats`, kept in memory.
final class ServiceMetrics: Sendable {
  /// Upper bounds of the latency histogram buckets, in seconds.
  static let latencyBuckets: [Double] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
  ]

  private struct RouteStatus: Hashable {
    var route: String
    var status: Int
  }

  private struct State {
    var requests: [RouteStatus: Int64] = [:]
    /// The route and status of the last answers, and how many of them in a row are not in
    /// `requests` yet: a run of answers of one kind (a round of votes) is counted without
    /// hashing, and added to `requests` when another kind comes or the counts are read.
    var run: (key: RouteStatus, count: Int64)?
    var totalRequests: Int64 = 0
    var votesApplied: Int64 = 0
    var storeErrors: Int64 = 0
    var storeErrorLinesSuppressed: Int64 = 0
    var storeErrorLog: LogThrottle
    var rateLimited: Int64 = 0
    var latencyCounts = [Int64](repeating: 0, count: ServiceMetrics.latencyBuckets.count + 1)
    var latencySum: Double = 0

    /// Counts one answer of `route` with `status` that took `seconds` (in `bucket`).
    mutating func count(route: String, status: Int, seconds: Double, bucket: Int) {
      if let run, run.key.status == status, run.key.route == route {
        self.run = (run.key, run.count + 1)
      } else {
        endRun()
        run = (RouteStatus(route: route, status: status), 1)
      }
      totalRequests += 1
      latencyCounts[bucket] += 1
      latencySum += seconds
      if status == 429 { rateLimited += 1 }
    }

    /// Adds the current run of answers to `requests`.
    mutating func endRun() {
      guard let run else { return }
      requests[run.key, default: 0] += run.count
      self.run = nil
    }
  }

  private let state: Locked<State>

  /// The state with its current run of answers counted in, for reading.
  private static func settled(_ state: inout State) -> State {
    state.endRun()
    return state
  }

  /// Creates empty metrics; store error lines are throttled to one per `logInterval` seconds.
  init(logInterval: Double = 10) {
    state = Locked(State(storeErrorLog: LogThrottle(interval: logInterval)))
  }

  /// Records one answered request; returns the throttled store error summary lines due at
  /// `now`, under the same lock (every answer is when a due summary gets logged).
  @discardableResult
  func recordRequest(
    route: String, status: Int, seconds: Double, now: Double = RateLimiter.now()
  ) -> [String] {
    let bucket = ServiceMetrics.bucket(seconds)
    return state.withLock { s in
      s.count(route: route, status: status, seconds: seconds, bucket: bucket)
      return s.storeErrorLog.tick(now: now)
    }
  }

  /// Records `count` requests answered together at `now` (a batch of votes) with one lock:
  /// `answer(i)` gives the route, status and seconds of the i-th. Returns what
  /// ``recordRequest(route:status:seconds:now:)`` would for the last of them.
  func recordRequests(
    _ count: Int, now: Double,
    _ answer: (Int) -> (route: String, status: Int, seconds: Double)
  ) -> [String] {
    guard count > 0 else { return [] }
    return state.withLock { s in
      for index in 0..<count {
        let (route, status, seconds) = answer(index)
        s.count(
          route: route, status: status, seconds: seconds, bucket: ServiceMetrics.bucket(seconds))
      }
      return s.storeErrorLog.tick(now: now)
    }
  }

  /// The latency bucket of an answer that took `seconds`.
  private static func bucket(_ seconds: Double) -> Int {
    latencyBuckets.firstIndex { seconds <= $0 } ?? latencyBuckets.count
  }

  /// Records a vote or count change that the store applied.
  func recordVoteApplied() { recordVotesApplied(1) }

  /// Records `count` vote or count changes that the store applied (a batch's, with one lock).
  func recordVotesApplied(_ count: Int64) {
    guard count > 0 else { return }
    state.withLock { $0.votesApplied += count }
  }

  /// Records a failed store call described by `line`; returns the lines to log now (the
  /// first of a burst, then a summary at most once per interval, see ``LogThrottle``), each
  /// one line (``oneLine(_:)``).
  func recordStoreError(_ line: String, now: Double = RateLimiter.now()) -> [String] {
    let line = Self.oneLine(line)
    return state.withLock { s in
      s.storeErrors += 1
      let lines = s.storeErrorLog.record(line, now: now)
      if lines.isEmpty { s.storeErrorLinesSuppressed += 1 }
      return lines
    }
  }

  /// `text` on one line, so that a log keeps one line per event: each line break, with the
  /// blanks around it, becomes one space (a database's message may run over several lines:
  /// `\tIs the server running…`, `DETAIL: …`).
  static func oneLine(_ text: String) -> String {
    guard text.contains(where: \.isNewline) else { return text }
    return text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .joined(separator: " ")
  }

  /// Requests answered since start.
  var totalRequests: Int64 { state.withLock { $0.totalRequests } }

  /// The Prometheus text exposition of every metric.
  func prometheusText() -> String {
    let s = state.withLock { ServiceMetrics.settled(&$0) }
    var out = ""
    out += "# HELP roadmap_http_requests_total HTTP requests answered, by route and status.\n"
    out += "# TYPE roadmap_http_requests_total counter\n"
    let sorted = s.requests.sorted {
      ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status)
    }
    for (key, count) in sorted {
      out +=
        "roadmap_http_requests_total{route=\(JSONText.quoted(key.route)),status=\"\(key.status)\"} \(count)\n"
    }
    out += "# HELP roadmap_votes_applied_total Count changes the store applied.\n"
    out += "# TYPE roadmap_votes_applied_total counter\n"
    out += "roadmap_votes_applied_total \(s.votesApplied)\n"
    out += "# HELP roadmap_store_errors_total Store calls that failed (answered 503).\n"
    out += "# TYPE roadmap_store_errors_total counter\n"
    out += "roadmap_store_errors_total \(s.storeErrors)\n"
    out += "# HELP roadmap_store_error_log_suppressed_total Store errors left out of the log "
    out += "(summarized at most once per interval instead).\n"
    out += "# TYPE roadmap_store_error_log_suppressed_total counter\n"
    out += "roadmap_store_error_log_suppressed_total \(s.storeErrorLinesSuppressed)\n"
    out += "# HELP roadmap_rate_limited_total Requests refused with 429.\n"
    out += "# TYPE roadmap_rate_limited_total counter\n"
    out += "roadmap_rate_limited_total \(s.rateLimited)\n"
    out += "# HELP roadmap_http_request_duration_seconds Time to answer a request.\n"
    out += "# TYPE roadmap_http_request_duration_seconds histogram\n"
    var cumulative: Int64 = 0
    for (i, bound) in ServiceMetrics.latencyBuckets.enumerated() {
      cumulative += s.latencyCounts[i]
      out += "roadmap_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
    }
    cumulative += s.latencyCounts[ServiceMetrics.latencyBuckets.count]
    out += "roadmap_http_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
    out += "roadmap_http_request_duration_seconds_sum \(s.latencySum)\n"
    out += "roadmap_http_request_duration_seconds_count \(cumulative)\n"
    return out
  }
}
