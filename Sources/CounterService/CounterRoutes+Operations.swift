import HTTPServer
import VoteStore

/// Our own routes: `/counts/:ns`, `/healthz`, `/metrics`.
extension CounterRoutes {
  /// `GET /counts/:ns?keys=a,b,c` → `{"counts":{"a":3,"b":0}}` in the order asked, missing
  /// keys 0, duplicates once, at most ``CounterServiceConfiguration/maxBatchKeys`` keys.
  /// Without `keys`: every counter of the namespace, paged (``allCounts(_:_:)``).
  func batchCounts(_ request: HTTPRequest) async throws -> Reply {
    let namespace: String
    let keys: [String]
    switch batchKeys(request) {
    case .failure(let reply): return reply
    case .success((let ns, nil)): return try await allCounts(ns, request)
    case .success((let ns, let asked?)): (namespace, keys) = (ns, asked)
    }
    let values = keys.isEmpty ? [:] : try await store.values(namespace: namespace, keys: keys)
    return CounterRoutes.countsReply(keys, values)
  }

  /// ``batchCounts(_:)`` with `keys` answered from the store's memory; nil when memory does
  /// not know every key, or without `keys` (the paged listing reads the database).
  func batchCountsImmediate(_ request: HTTPRequest) -> Reply? {
    switch batchKeys(request) {
    case .failure(let reply): return reply
    case .success((_, nil)): return nil
    case .success((let namespace, let keys?)):
      guard !keys.isEmpty else { return CounterRoutes.countsReply(keys, [:]) }
      return store.cachedValues(namespace: namespace, keys: keys).map {
        CounterRoutes.countsReply(keys, $0)
      }
    }
  }

  /// The namespace and the keys asked for (nil without `keys`), or the 400 answer.
  private func batchKeys(_ request: HTTPRequest) -> Result<(String, [String]?), Reply> {
    let namespace = request.parameter("ns") ?? ""
    if let problem = NameRules.problem(namespace) {
      return .failure(Dialect.countapi.error(400, problem))
    }
    if NameRules.hasEmptyInnerSegment(request.target) {
      return .failure(Dialect.countapi.error(400, NameRules.emptySegmentRule))
    }
    guard let list = request.query("keys") else { return .success((namespace, nil)) }
    var keys: [String] = []
    var seen: Set<String> = []
    for part in list.split(separator: ",", omittingEmptySubsequences: true) {
      let key = String(part)
      if let problem = NameRules.problem(key) {
        return .failure(Dialect.countapi.error(400, problem))
      }
      if seen.insert(key).inserted { keys.append(key) }
      if keys.count > configuration.maxBatchKeys {
        return .failure(
          Dialect.countapi.error(
            400, "too many keys: at most \(configuration.maxBatchKeys) per request"))
      }
    }
    return .success((namespace, keys))
  }

  /// `{"counts":{…}}` for `keys` in order, a missing key 0.
  private static func countsReply(_ keys: [String], _ values: CounterValues) -> Reply {
    var counts = JSONText()
    for key in keys { counts.int(key, values[key] ?? 0) }
    var json = JSONText()
    json.raw("counts", counts.object)
    return .json(json.object)
  }

  /// `GET /counts/:ns[?after=KEY&limit=N]` (no `keys`) → every counter of the namespace in
  /// key order, one page of at most `limit` (default and maximum
  /// ``CounterServiceConfiguration/maxBatchKeys``) counters after the key `after`:
  /// `{"counts":{…},"next":"LAST"}`, where `next` is the `after` of the next page, or null on
  /// the last page.
  func allCounts(_ namespace: String, _ request: HTTPRequest) async throws -> Reply {
    let after = request.query("after")
    if let after, !after.isEmpty, !NameRules.isValidName(after) {
      return Dialect.countapi.error(400, CounterRoutes.nameRule)
    }
    var limit = configuration.maxBatchKeys
    if let text = request.query("limit") {
      guard let value = Int(text), (1...configuration.maxBatchKeys).contains(value) else {
        return Dialect.countapi.error(
          400, "limit must be an integer from 1 to \(configuration.maxBatchKeys)")
      }
      limit = value
    }
    // One more than the page, to know whether another follows.
    let rows = try await store.counters(namespace: namespace, after: after ?? "", limit: limit + 1)
    var counts = JSONText()
    for record in rows.prefix(limit) { counts.int(record.key, record.value) }
    let more = rows.count > limit
    let last = rows.prefix(limit).last?.key
    var json = JSONText()
    json.raw("counts", counts.object)
    json.string("next", more ? last : nil)
    return .json(json.object)
  }

  /// `GET /healthz` → 200 `{"status":"ok"}` when the store answers a read and a write
  /// check and recent writes have not been failing; else 503
  /// `{"status":"unavailable","error":"KIND: MESSAGE"}`, with `"writes":"failing"` between
  /// them (and `writes are failing: ` before MESSAGE) when real writes are what fails (a
  /// full disk, a lost database), so a monitor sees a store that reads but cannot count
  /// votes. MESSAGE is ``VoteStoreError/publicMessage``: anyone may ask, so it never holds a
  /// path or the database's own text; the full cause is logged (throttled).
  ///
  /// The store's check is a durable write (SQLite: a row updated and fsynced; PostgreSQL: a
  /// transaction), and `/healthz` is open to anyone without a rate limit, so a check that
  /// passed answers for ``CounterServiceConfiguration/healthCheckReuseSeconds`` after it
  /// began, unless real writes have
  /// failed since: before, each request wrote, and one client asking 19,000 times a second
  /// made the server write 7 MB a second to its disk.
  func health(_ request: HTTPRequest) async -> Reply {
    let now = RateLimiter.now()
    if let last = lastHealthyCheck.withLock({ $0 }),
      now - last < configuration.healthCheckReuseSeconds,
      !store.writeHealth().isFailing
    {
      return .json(#"{"status":"ok"}"#)
    }
    do {
      try await store.checkHealth()
      lastHealthyCheck.withLock { $0 = max($0 ?? now, now) }
      return .json(#"{"status":"ok"}"#)
    } catch {
      lastHealthyCheck.withLock { $0 = nil }
      for line in metrics.recordStoreError("health check failed: \(error)") {
        configuration.log(line)
      }
      var json = JSONText()
      json.string("status", "unavailable")
      let writesFailing = store.writeHealth().isFailing
      if writesFailing { json.string("writes", "failing") }
      json.string(
        "error",
        "\(error.kind): \(writesFailing ? "writes are failing: " : "")\(error.publicMessage)")
      var reply = Reply.json(json.object, status: 503)
      reply.headers.append((name: "Retry-After", value: "1"))
      return reply
    }
  }

  /// `GET /metrics` in the Prometheus text format (version 0.0.4).
  func metricsText(_ request: HTTPRequest) async -> Reply {
    Reply(
      status: 200, body: metrics.prometheusText(),
      contentType: "text/plain; version=0.0.4; charset=utf-8", wrappable: false)
  }
}
