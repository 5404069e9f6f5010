import HTTPServer
import VoteStore

/// Our own routes: `/counts/:ns`, `/healthz`, `/metrics`.
extension CounterRoutes {
  /// `GET /counts/:ns?keys=a,b,c` → `{"counts":{"a":3,"b":0}}` in the order asked, missing
  /// keys 0, duplicates once, at most ``CounterServiceConfiguration/maxBatchKeys`` keys.
  func batchCounts(_ request: HTTPRequest) async throws -> Reply {
    let namespace = request.parameter("ns") ?? ""
    guard NameRules.isValidName(namespace) else {
      return Dialect.countapi.error(400, CounterRoutes.nameRule)
    }
    guard let list = request.query("keys") else {
      return Dialect.countapi.error(400, "keys is required: /counts/NS?keys=a,b,c")
    }
    var keys: [String] = []
    var seen: Set<String> = []
    for part in list.split(separator: ",", omittingEmptySubsequences: true) {
      let key = String(part)
      guard NameRules.isValidName(key) else {
        return Dialect.countapi.error(400, CounterRoutes.nameRule)
      }
      if seen.insert(key).inserted { keys.append(key) }
      if keys.count > configuration.maxBatchKeys {
        return Dialect.countapi.error(
          400, "too many keys: at most \(configuration.maxBatchKeys) per request")
      }
    }
    let values = keys.isEmpty ? [:] : try await store.values(namespace: namespace, keys: keys)
    var counts = JSONText()
    for key in keys { counts.int(key, values[key] ?? 0) }
    var json = JSONText()
    json.raw("counts", counts.object)
    return .json(json.object)
  }

  /// `GET /healthz` → 200 `{"status":"ok"}` when the store answers a read and a write
  /// check, else 503 with the cause (which is also logged).
  func health(_ request: HTTPRequest) async -> Reply {
    do {
      try await store.checkHealth()
      return .json(#"{"status":"ok"}"#)
    } catch {
      metrics.recordStoreError()
      configuration.log("health check failed: \(error)")
      var json = JSONText()
      json.string("status", "unavailable")
      json.string("error", error.description)
      return .json(json.object, status: 503)
    }
  }

  /// `GET /metrics` in the Prometheus text format (version 0.0.4).
  func metricsText(_ request: HTTPRequest) async -> Reply {
    Reply(
      status: 200, body: metrics.prometheusText(),
      contentType: "text/plain; version=0.0.4; charset=utf-8", wrappable: false)
  }
}
