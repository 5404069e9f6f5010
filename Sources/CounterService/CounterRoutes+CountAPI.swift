import Foundation
import HTTPServer
import VoteStore

/// countapi.xyz: `/get`, `/hit`, `/update`, `/set`, `/create`, `/info`, `/stats`.
extension CounterRoutes {
  private static let missingValue = Reply.json(#"{"value":null}"#, status: 404)

  static func value(_ value: Int64, status: Int = 200) -> Reply {
    .json("{\"value\":\(value)}", status: status)
  }

  /// `GET /get/:ns/:key` → `{"value":N}`, 404 `{"value":null}` when missing.
  func countapiGet(_ request: HTTPRequest) async throws -> Reply {
    try await read(request, .countapi) { record in
      record.map { CounterRoutes.value($0.value) } ?? CounterRoutes.missingValue
    }
  }

  /// ``countapiGet(_:)`` answered from the store's memory; nil when memory does not know.
  func countapiGetImmediate(_ request: HTTPRequest) -> Reply? {
    readImmediately(request, .countapi) { record in
      record.map { CounterRoutes.value($0.value) } ?? CounterRoutes.missingValue
    }
  }

  /// `GET /hit/:ns/:key`: creates the key (bounds [-1, 1], or [0, 1] when strict) and adds
  /// one; with a voter id, only this voter's first hit counts.
  func countapiHit(_ request: HTTPRequest) async throws -> Reply {
    var fail: Reply?
    guard let (namespace, key) = names(request, .countapi).unwrap(into: &fail),
      let voterID = voter(request, .countapi, forWrite: true).unwrap(into: &fail)
    else { return fail! }
    let record = try await store.record(namespace: namespace, key: key)
    if let refusal = CounterRoutes.rangeRefusal(record, delta: 1, checkBounds: false) {
      throw refusal
    }
    if record == nil,
      let refusal = try await creationRefusal(
        request, .countapi, namespace: namespace, key: key)
    {
      return refusal
    }
    let result = try await store.apply(
      CounterMutation(
        namespace: namespace, key: key, delta: 1, voter: voterID, checkBounds: false,
        createIfMissing: voteCreation(namespace, key)))
    if result.outcome == .applied { metrics.recordVoteApplied() }
    return CounterRoutes.value(result.record?.value ?? 0)
  }

  /// `GET /update/:ns/:key?amount=N`: adds `amount` within the key's bounds (403 with the
  /// value unchanged outside them); 404 `{"value":null}` when missing. With a voter id,
  /// `+1` votes once and `-1` removes only this voter's vote.
  func countapiUpdate(_ request: HTTPRequest) async throws -> Reply {
    var fail: Reply?
    guard let (namespace, key) = names(request, .countapi).unwrap(into: &fail) else {
      return fail!
    }
    let amount = try CounterRoutes.integer(
      request.query("amount"), "amount", in: CounterRoutes.amounts,
      invalid: "amount must be an integer")
    guard let voterID = voter(request, .countapi, forWrite: amount != 0).unwrap(into: &fail) else {
      return fail!
    }
    if amount == 0 { return try await countapiGet(request) }
    try await refuseLeavingRange(namespace, key, delta: amount, checkBounds: true)
    let result = try await store.apply(
      CounterMutation(
        namespace: namespace, key: key, delta: amount, voter: voterID, checkBounds: true))
    guard let record = result.record else { return CounterRoutes.missingValue }
    switch result.outcome {
    case .applied:
      metrics.recordVoteApplied()
      return CounterRoutes.value(record.value)
    case .outOfBounds:
      return CounterRoutes.value(record.value, status: 403)
    case .missing:
      return CounterRoutes.missingValue
    case .alreadyVoted, .notVoted, .atZero:
      return CounterRoutes.value(record.value)
    }
  }

  /// `GET /set/:ns/:key?value=N` → `{"old_value":…,"value":…}`. Allowed with the admin
  /// token (which also creates a missing key) or on a key created with `enable_reset`;
  /// otherwise 403.
  func countapiSet(_ request: HTTPRequest) async throws -> Reply {
    var fail: Reply?
    guard let (namespace, key) = names(request, .countapi).unwrap(into: &fail) else {
      return fail!
    }
    let value = try CounterRoutes.integer(
      request.query("value"), "value", in: CounterRoutes.counts,
      invalid: "value must be a non-negative integer")
    let admin = isAdmin(request)
    if !admin && configuration.requireVoter {
      // A count set by anyone is an anonymous write of any size: on a server that refuses
      // anonymous votes, a key made with enable_reset would be a way around that rule.
      return Dialect.countapi.error(
        403,
        needsAdminToken(
          "this server refuses anonymous votes: setting a count needs the admin token"))
    }
    if !admin {
      guard let record = try await store.record(namespace: namespace, key: key) else {
        return CounterRoutes.missingValue
      }
      guard record.enableReset else {
        return Dialect.countapi.error(
          403,
          needsAdminToken(
            "this key was not created with enable_reset; setting it needs the admin token"))
      }
    }
    guard
      let (old, record) = try await store.set(
        namespace: namespace, key: key, value: value,
        createIfMissing: admin ? voteCreation(namespace, key) : nil)
    else { return CounterRoutes.missingValue }
    metrics.recordVoteApplied()
    return .json("{\"old_value\":\(old),\"value\":\(record.value)}")
  }

  /// `GET /create?namespace=&key=&value=&enable_reset=&update_lowerbound=&update_upperbound=`
  /// → `{"namespace","key","value"}`; 409 with nulls when the key exists. Without `key`, a
  /// random one is made.
  func countapiCreate(_ request: HTTPRequest) async throws -> Reply {
    let namespace = nonEmpty(request.query("namespace")) ?? CounterRoutes.defaultNamespace
    let key = nonEmpty(request.query("key")) ?? UUID().uuidString.lowercased()
    if let problem = NameRules.problem(namespace, key) {
      return Dialect.countapi.error(400, problem)
    }
    let rawValue = nonEmpty(request.query("value"))
    let value =
      rawValue == nil
      ? 0
      : try CounterRoutes.integer(
        rawValue, "value", in: CounterRoutes.counts, invalid: "value must be a non-negative integer"
      )
    let enableReset: Bool
    switch nonEmpty(request.query("enable_reset"))?.lowercased() {
    case nil, "0", "false": enableReset = false
    case "1", "true": enableReset = true
    default: return Dialect.countapi.error(400, "enable_reset must be 0, 1, true or false")
    }
    let rawLower = nonEmpty(request.query("update_lowerbound"))
    let rawUpper = nonEmpty(request.query("update_upperbound"))
    let boundsRule = "update_lowerbound must be an integer <= 0 and update_upperbound one >= 0"
    let lower =
      rawLower == nil
      ? -1
      : try CounterRoutes.integer(
        rawLower, "update_lowerbound", in: CounterRoutes.lowerBounds, invalid: boundsRule)
    let upper =
      rawUpper == nil
      ? 1
      : try CounterRoutes.integer(
        rawUpper, "update_upperbound", in: CounterRoutes.upperBounds, invalid: boundsRule)
    if configuration.requireVoter, !isAdmin(request) {
      // A starting count is votes nobody cast, and enable_reset lets anyone set the count
      // later: on a server that refuses anonymous writes, both need the admin token.
      if value != 0 || enableReset {
        return Dialect.countapi.error(
          403,
          "this server refuses anonymous votes: a counter with a starting value or "
            + "enable_reset needs the admin token")
      }
      // A plain one is a write all the same: a voter id, as for a vote.
      var fail: Reply?
      guard voter(request, .countapi, forWrite: true).unwrap(into: &fail) != nil else {
        return fail!
      }
    }
    let creation = CounterCreation(
      namespace: namespace, key: key, value: value, enableReset: enableReset,
      updateLowerBound: lower, updateUpperBound: upper)
    let exists = Reply.json(#"{"namespace":null,"key":null,"value":null}"#, status: 409)
    if creations.isActive {
      // A key that exists is the 409 it always was, not a new counter to count.
      guard try await store.record(namespace: namespace, key: key) == nil else { return exists }
      if let refusal = try await creationRefusal(
        request, .countapi, namespace: namespace, key: key)
      {
        return refusal
      }
    }
    guard let record = try await store.create(creation) else { return exists }
    var json = JSONText()
    json.string("namespace", record.namespace)
    json.string("key", record.key)
    json.int("value", record.value)
    return .json(json.object)
  }

  /// `HEAD /create?namespace=&key=`: the `/get` answer of the named counter, never a write
  /// (404 `{"value":null}` when it does not exist or no key is named).
  func countapiCreateHead(_ request: HTTPRequest) async throws -> Reply {
    let namespace = nonEmpty(request.query("namespace")) ?? CounterRoutes.defaultNamespace
    guard let key = nonEmpty(request.query("key")) else { return CounterRoutes.missingValue }
    if let problem = NameRules.problem(namespace, key) {
      return Dialect.countapi.error(400, problem)
    }
    guard let record = try await store.record(namespace: namespace, key: key) else {
      return CounterRoutes.missingValue
    }
    return CounterRoutes.value(record.value)
  }

  /// `GET /info/:ns/:key` → namespace, key, ttl (-1: never expires), created (ms), value,
  /// enable_reset, update_lowerbound, update_upperbound; 404 `{"value":null}` when missing.
  func countapiInfo(_ request: HTTPRequest) async throws -> Reply {
    try await read(request, .countapi, answer: CounterRoutes.info)
  }

  /// ``countapiInfo(_:)`` answered from the store's memory; nil when memory does not know.
  func countapiInfoImmediate(_ request: HTTPRequest) -> Reply? {
    readImmediately(request, .countapi, answer: CounterRoutes.info)
  }

  private static func info(_ record: CounterRecord?) -> Reply {
    guard let record else { return CounterRoutes.missingValue }
    var json = JSONText()
    json.string("namespace", record.namespace)
    json.string("key", record.key)
    json.int("ttl", -1)
    json.int("created", record.createdAt)
    json.int("value", record.value)
    json.bool("enable_reset", record.enableReset)
    json.int("update_lowerbound", record.updateLowerBound)
    json.int("update_upperbound", record.updateUpperBound)
    return .json(json.object)
  }

  /// `GET /stats` → keys_created, keys_updated, requests (since start), version.
  ///
  /// The store's figures are counted over whole tables (every counter, every voter), which
  /// takes time as the store grows: about 4 ms of a reader's time at 300,000 votes, where a
  /// `/get` takes microseconds. So they are read at most once per
  /// ``CounterServiceConfiguration/statisticsReuseSeconds``: before, 143 `/stats` a second
  /// (seven addresses within their read limits) cut the votes a server took by half.
  func countapiStats(_ request: HTTPRequest) async throws -> Reply {
    let now = RateLimiter.now()
    let statistics: StoreStatistics
    if let last = lastStatistics.withLock({ $0 }),
      now - last.at < configuration.statisticsReuseSeconds
    {
      statistics = last.statistics
    } else {
      statistics = try await store.statistics()
      lastStatistics.withLock { $0 = (at: now, statistics: statistics) }
    }
    var json = JSONText()
    json.int("keys_created", statistics.counters)
    json.int("keys_updated", statistics.updates)
    json.int("requests", metrics.totalRequests + 1)
    json.string("version", configuration.version)
    return .json(json.object)
  }

  private func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
