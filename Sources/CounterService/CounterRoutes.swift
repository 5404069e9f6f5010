import Foundation
import HTTPServer
import VoteStore

/// The route bodies, with what they share: the store, the configuration and the metrics.
///
/// Each body validates its input, calls the store once (twice for a guarded `/set`), and
/// turns the outcome into the original protocol's status and body. Errors propagate to the
/// wrapper in `CounterService+Router.swift`, which answers each as ``ServiceError/answer(for:)``
/// says: a store failure 503, a refused write 409, anything unexpected a logged 500.
struct CounterRoutes: Sendable {
  /// The namespace of countapi routes that omit it.
  static let defaultNamespace = "default"
  /// The largest count, amount or bound accepted: 2^53 - 1, so JavaScript reads it exactly.
  static let maxMagnitude: Int64 = CounterLimits.maximum
  /// What an `amount` may be: ±``maxMagnitude``.
  static let amounts = -maxMagnitude...maxMagnitude
  /// What a count (`value`, `count`) may be: 0 to ``maxMagnitude``.
  static let counts: ClosedRange<Int64> = 0...maxMagnitude
  /// What `update_lowerbound` may be: −``maxMagnitude`` to 0.
  static let lowerBounds: ClosedRange<Int64> = -maxMagnitude...0
  /// What `update_upperbound` may be: 0 to ``maxMagnitude``.
  static let upperBounds: ClosedRange<Int64> = 0...maxMagnitude

  let store: any VoteStore
  let configuration: CounterServiceConfiguration
  let metrics: ServiceMetrics
  /// The common headers of answers, encoded once per `X-Path` and content type.
  let headerCache: CommonHeaderCache
  /// When the last store check `/healthz` ran began, if it passed (see ``health(_:)``).
  let lastHealthyCheck = Locked<Double?>(nil)
  /// The store's statistics `/stats` last read, and when (see ``countapiStats(_:)``).
  let lastStatistics = Locked<(at: Double, statistics: StoreStatistics)?>(nil)
  /// The bounds on new counters (``CounterServiceConfiguration/createLimit``,
  /// ``CounterServiceConfiguration/maxCounters``).
  let creations: CounterCreationGuard

  /// The routes over `store`, answering with `configuration` and counting in `metrics`.
  init(store: any VoteStore, configuration: CounterServiceConfiguration, metrics: ServiceMetrics) {
    self.store = store
    self.configuration = configuration
    self.metrics = metrics
    self.headerCache = CommonHeaderCache(origin: configuration.corsOrigin)
    self.creations = CounterCreationGuard(store: store, configuration: configuration)
  }

  /// The refusal of a request that would make the new counter `namespace`/`key`, or nil
  /// when it may (always with the admin token, whose counter still counts toward the
  /// ceiling); see ``CounterCreationGuard``. Call it only once the counter is
  /// known not to exist: a vote on one that does is never limited by it.
  func creationRefusal(
    _ request: HTTPRequest, _ dialect: Dialect, namespace: String, key: String
  ) async throws -> Reply? {
    guard creations.isActive else { return nil }
    if isAdmin(request) {
      creations.noteMade(namespace: namespace, key: key)
      return nil
    }
    return try await creations.admit(request, dialect, namespace: namespace, key: key)
  }

  /// The message for names that break the countapi rule.
  static let nameRule = NameRules.nameRule

  /// The namespace and key of a keyed route, or the 400 answer when either is invalid.
  func names(_ request: HTTPRequest, _ dialect: Dialect) -> Result<(String, String), Reply> {
    let namespace = request.parameter("ns") ?? CounterRoutes.defaultNamespace
    let key = request.parameter("key") ?? request.parameter("name") ?? ""
    if let problem = NameRules.problem(namespace, key) {
      return .failure(dialect.error(400, problem))
    }
    if NameRules.hasEmptyInnerSegment(request.target) {
      return .failure(dialect.error(400, NameRules.emptySegmentRule))
    }
    return .success((namespace, key))
  }

  /// The voter id from `X-Voter-ID` or `voter=`, nil when anonymous (neither is present),
  /// or the 400 answer (either is present but empty or malformed).
  ///
  /// With `forWrite` and ``CounterServiceConfiguration/requireVoter``, an anonymous
  /// request gets the 403 answer instead.
  func voter(_ request: HTTPRequest, _ dialect: Dialect, forWrite: Bool) -> Result<String?, Reply> {
    // Present but empty (`X-Voter-ID:` or `voter=`) is a client bug, not anonymity: 400.
    let given = request.headers["X-Voter-ID"] ?? request.query("voter")
    if let given {
      guard NameRules.isValidVoter(given) else {
        return .failure(
          dialect.error(
            400,
            "invalid voter id: use 1 to \(NameRules.maxVoterLength) characters of letters, "
              + "digits and _ - . : @ + = /"))
      }
      return .success(given)
    }
    if forWrite && configuration.requireVoter {
      return .failure(
        dialect.error(
          403,
          "this server refuses anonymous votes: send a voter id in the X-Voter-ID header "
            + "or the voter= query parameter"))
    }
    return .success(nil)
  }

  /// `refusal`, a call that needs the admin token, told on a server without one that no
  /// token would do, and how to give it one (``CounterService/noAdminTokenMessage``).
  func needsAdminToken(_ refusal: String) -> String {
    configuration.adminToken == nil
      ? refusal + " (" + CounterService.noAdminTokenMessage + ")" : refusal
  }

  /// Whether the request carries the admin token (`Authorization: Bearer T` or `?token=T`),
  /// compared in constant time.
  func isAdmin(_ request: HTTPRequest) -> Bool {
    guard let expected = configuration.adminToken,
      let presented = CounterService.presentedToken(request, query: true)
    else { return false }
    return ConstantTime.equals(presented, expected)
  }

  /// The creation defaults of a key made by a vote (`/hit`, `/up`, an admin `/set`).
  func voteCreation(_ namespace: String, _ key: String) -> CounterCreation {
    CounterCreation(
      namespace: namespace, key: key, value: 0, enableReset: false,
      updateLowerBound: configuration.strictCountapi ? 0 : -1, updateUpperBound: 1)
  }

  /// Parses a decimal integer with an optional sign, within ±``maxMagnitude``.
  /// A leading space is read as `+`: an unencoded `amount=+1` arrives as `" 1"`.
  static func integer(_ raw: String?) -> Int64? {
    guard let text = signed(raw), text.utf8.count <= 20, let value = Int64(text),
      value >= -maxMagnitude, value <= maxMagnitude
    else { return nil }
    return value
  }

  /// The integer parameter `name` from `raw`, which must lie in `range` (within
  /// ±``maxMagnitude``).
  ///
  /// Throws a 400: `invalid` when `raw` is missing, not an integer, or an integer outside
  /// `range` that a client could mean (`value=-1`); `NAME must be an integer from A to B`
  /// when its magnitude is past ±``maxMagnitude`` (`value=9007199254740992`), so the client
  /// learns the limit rather than a parsing complaint.
  static func integer(
    _ raw: String?, _ name: String, in range: ClosedRange<Int64>, invalid: String
  ) throws(ServiceError) -> Int64 {
    if let value = integer(raw) {
      guard range.contains(value) else { throw .badRequest(invalid) }
      return value
    }
    guard let text = signed(raw) else { throw .badRequest(invalid) }
    let negative = text.hasPrefix("-")
    let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      !(negative && range.lowerBound >= 0)
    else { throw .badRequest(invalid) }
    throw .outOfRange(
      name, must: "an integer from \(range.lowerBound) to \(range.upperBound)")
  }

  /// `raw` with a leading space read as `+`; nil when missing or empty.
  private static func signed(_ raw: String?) -> String? {
    guard let raw, !raw.isEmpty else { return nil }
    let text = raw.hasPrefix(" ") ? "+" + raw.dropFirst() : raw
    // Leading zeros say nothing (`000000000000000000001` is 1), so no length limit counts them.
    let sign = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.prefix(1)) : ""
    let digits = text.dropFirst(sign.count)
    guard digits.count > 1, digits.first == "0" else { return text }
    let kept = digits.drop { $0 == "0" }
    return sign + (kept.isEmpty ? "0" : kept)
  }

  /// Refuses (409, nothing changed) a change of `delta` whose result would take the counter
  /// out of ±``maxMagnitude``, reading the counter first.
  ///
  /// With `checkBounds`, a `delta` outside the counter's update bounds is left for the store
  /// to answer (403 on countapi). A missing counter passes (a new one starts at zero). The
  /// store enforces the same limit atomically; this check answers the common case before
  /// any write is attempted, so even a store without it never reaches `Int64`'s end.
  func refuseLeavingRange(
    _ namespace: String, _ key: String, delta: Int64, checkBounds: Bool
  ) async throws {
    let record = try await store.record(namespace: namespace, key: key)
    if let refusal = CounterRoutes.rangeRefusal(record, delta: delta, checkBounds: checkBounds) {
      throw refusal
    }
  }

  /// ``refuseLeavingRange(_:_:delta:checkBounds:)``'s rule on a counter already read.
  static func rangeRefusal(
    _ record: CounterRecord?, delta: Int64, checkBounds: Bool
  ) -> ServiceError? {
    guard let record else { return nil }
    if checkBounds
      && (delta < record.updateLowerBound || delta > record.updateUpperBound)
    {
      return nil
    }
    let (sum, overflow) = record.value.addingReportingOverflow(delta)
    if overflow || sum > CounterRoutes.maxMagnitude {
      return ServiceError.wouldLeaveRange(value: record.value, amount: delta)
    }
    return nil
  }
}

extension Result where Failure == Reply {
  /// The success value, or nil after storing the failure in `reply`.
  func unwrap(into reply: inout Reply?) -> Success? {
    switch self {
    case .success(let value): return value
    case .failure(let failure):
      reply = failure
      return nil
    }
  }
}

extension Reply: Error {}
