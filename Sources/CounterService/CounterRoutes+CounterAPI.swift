import HTTPServer
import VoteStore

/// counterapi.dev v1: `/v1/:ns/:name`, `/up`, `/down`, `/set?count=`.
extension CounterRoutes {
  static let notFound = Dialect.counterapi.error(400, "record not found")

  /// `GET /v1/:ns/:name` → the row; 400 `{"code":400,"message":"record not found"}`.
  func counterapiGet(_ request: HTTPRequest) async throws -> Reply {
    try await read(request, .counterapi) { record in
      record.map { .json(CounterRoutes.row($0)) } ?? CounterRoutes.notFound
    }
  }

  /// ``counterapiGet(_:)`` answered from the store's memory; nil when memory does not know.
  func counterapiGetImmediate(_ request: HTTPRequest) -> Reply? {
    readImmediately(request, .counterapi) { record in
      record.map { .json(CounterRoutes.row($0)) } ?? CounterRoutes.notFound
    }
  }

  /// `GET /v1/:ns/:name/up` adds one and `/down` subtracts one, never below zero; both create
  /// a missing counter (at 0 for `down`), as counterapi's server did (its `DecreaseByName`
  /// gets or creates the row), so an app's unvote never meets "record not found". With a
  /// voter id, `up` votes once and `down` removes only this voter's vote.
  func counterapiStep(_ request: HTTPRequest, up: Bool) async throws -> Reply {
    var fail: Reply?
    guard let (namespace, key) = names(request, .counterapi).unwrap(into: &fail),
      let voterID = voter(request, .counterapi, forWrite: true).unwrap(into: &fail)
    else { return fail! }
    let existing = try await store.record(namespace: namespace, key: key)
    if let refusal = CounterRoutes.rangeRefusal(existing, delta: up ? 1 : -1, checkBounds: false) {
      throw refusal
    }
    if existing == nil,
      let refusal = try await creationRefusal(
        request, .counterapi, namespace: namespace, key: key)
    {
      return refusal
    }
    let result = try await store.apply(
      CounterMutation(
        namespace: namespace, key: key, delta: up ? 1 : -1, voter: voterID, checkBounds: false,
        createIfMissing: voteCreation(namespace, key)))
    guard let record = result.record else { return CounterRoutes.notFound }
    if result.outcome == .applied { metrics.recordVoteApplied() }
    return .json(CounterRoutes.row(record))
  }

  /// `GET /v1/:ns/:name/set?count=N` (admin token): sets the count, creating the counter.
  func counterapiSet(_ request: HTTPRequest) async throws -> Reply {
    var fail: Reply?
    guard let (namespace, key) = names(request, .counterapi).unwrap(into: &fail) else {
      return fail!
    }
    guard isAdmin(request) else {
      var reply = Dialect.counterapi.error(
        401,
        needsAdminToken(
          "setting a count needs the admin token (Authorization: Bearer T or token=T)"))
      reply.headers.append((name: "WWW-Authenticate", value: "Bearer"))
      return reply
    }
    let count = try CounterRoutes.integer(
      request.query("count"), "count", in: CounterRoutes.counts,
      invalid: "count must be a non-negative integer")
    guard
      let (_, record) = try await store.set(
        namespace: namespace, key: key, value: count,
        createIfMissing: voteCreation(namespace, key))
    else { return CounterRoutes.notFound }
    metrics.recordVoteApplied()
    return .json(CounterRoutes.row(record))
  }

  /// The counterapi v1 row for `record`.
  ///
  /// counterapi had namespace rows with their own ids; ours are derived from the namespace
  /// name (FNV-1a, 31 bits), stable across restarts and hosts.
  static func row(_ record: CounterRecord) -> String {
    let namespaceID = namespaceID(record.namespace)
    var namespace = JSONText()
    namespace.int("id", namespaceID)
    namespace.string("name", record.namespace)
    var json = JSONText()
    json.int("id", record.id)
    json.string("name", record.key)
    json.int("count", record.value)
    json.int("namespace_id", namespaceID)
    json.string("created_at", Timestamp.rfc3339(milliseconds: record.createdAt))
    json.string("updated_at", Timestamp.rfc3339(milliseconds: record.updatedAt))
    json.raw("namespace", namespace.object)
    return json.object
  }

  /// A stable positive id for a namespace name.
  static func namespaceID(_ name: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return Int64(hash & 0x7FFF_FFFF)
  }
}
