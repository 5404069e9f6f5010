import Foundation
import HTTPServer
import VoteStore

/// What bounds the counters that anyone may make: countapi's `/hit` and `/create` and
/// counterapi's `/up` and `/down` make a counter that does not exist yet, about 150 bytes on
/// disk each, so without a bound one client could fill the disk with random keys.
///
/// Two bounds, each off when zero:
/// - ``CounterServiceConfiguration/createLimit``: new counters per client address (an IPv6
///   client per /64), a token bucket of its own beside the read and write limits;
/// - ``CounterServiceConfiguration/maxCounters``: the most counters the store may hold for
///   such a request to make another.
///
/// Neither applies to a request with the admin token (`votes pull`'s `/set`), to the board
/// API (its counters belong to features an admin made) or to `votes import` and `restore`,
/// which write to the store directly; and neither touches a vote on a counter that exists, so
/// the votes' hot path does no work for them.
///
/// The store's count is read at most once a minute on the creation path (a `count(*)` of
/// the counters) and the creations since are added to it; before refusing on it,
/// a count older than a few seconds is read again, so a ceiling raised in the store (counters
/// removed) or reached by another instance on the same PostgreSQL database is seen soon.
final class CounterCreationGuard: Sendable {
  /// Whether the store has room for a new counter, as far as the guard knows.
  enum Room: Sendable, Equatable {
    /// Below the ceiling (or none is set).
    case room
    /// At the ceiling, by a recent count.
    case full
    /// The count must be read from the store first.
    case unknown
  }

  /// How long a count read from the store stands (with the creations since added to it),
  /// in seconds, before the next creation reads it again in the background.
  static let countReuseSeconds: Double = 60
  /// How old a count may be for a refusal at the ceiling to rest on it, in seconds.
  static let refusalCountSeconds: Double = 5
  /// How long a key whose new counter a request was let make stays claimed, in seconds: the
  /// other requests for that key meanwhile (votes sent at once, before the store holds the
  /// counter) make no counter of their own, so they draw on no allowance and meet no ceiling.
  static let claimSeconds: Double = 60
  /// The most claimed keys remembered; past it the expired ones go, then all (a key
  /// forgotten early only costs a second request for it one more of its address's
  /// allowance).
  static let maxClaims = 10_000

  /// A counter's namespace and key, claimed by the request that makes it.
  private struct Claim: Hashable {
    var namespace: String
    var key: String
  }

  private struct State {
    /// The store's counters when last read, and when.
    var counted: Int64?
    /// When the read of ``counted`` began.
    var countedAt: Double = 0
    /// Counters this guard let requests make, in all.
    var made: Int64 = 0
    /// ``made`` when the read of ``counted`` began: those made since may not be in it.
    var madeAtCount: Int64 = 0
    /// Counters made since the last count began, as far as this guard knows.
    var madeSince: Int64 { made - madeAtCount }
    /// Whether the last decision at the ceiling was a refusal (logged once per change).
    var full = false
    /// Reads of the count under way: in requests' own tasks (see
    /// ``readCountUnlessUnderWay()``) and in the background (see ``room(now:justRead:)``).
    var readsUnderWay = 0
    /// The keys whose new counter a request was let make, and when (see ``claimSeconds``).
    var claims: [Claim: Double] = [:]

    /// Whether `claim` was claimed less than ``claimSeconds`` before `now`.
    func isClaimed(_ claim: Claim, _ now: Double) -> Bool {
      guard let at = claims[claim] else { return false }
      return now - at < CounterCreationGuard.claimSeconds
    }

    /// Claims `claim` at `now` and counts its counter toward the ceiling.
    mutating func claim(_ claim: Claim, _ now: Double) {
      if claims.count >= CounterCreationGuard.maxClaims, claims[claim] == nil {
        claims = claims.filter { now - $0.value < CounterCreationGuard.claimSeconds }
        if claims.count >= CounterCreationGuard.maxClaims { claims.removeAll() }
      }
      claims[claim] = now
      made += 1
    }
  }

  private let store: any VoteStore
  private let maxCounters: Int64
  /// New counters per client address (its `write` bucket); nil without a limit.
  private let perAddress: RateLimiter?
  private let trustProxy: Bool
  private let log: @Sendable (String) -> Void
  private let state = Locked(State())

  /// Whether any bound is set (else every creation is let through without a look).
  let isActive: Bool

  /// A guard over `store` with `configuration`'s bounds.
  init(store: any VoteStore, configuration: CounterServiceConfiguration) {
    self.store = store
    self.maxCounters = Int64(max(0, configuration.maxCounters))
    self.perAddress =
      configuration.createLimit.isUnlimited
      ? nil
      : RateLimiter(
        reads: .unlimited, writes: configuration.createLimit,
        maxClients: configuration.maxTrackedClients)
    self.trustProxy = configuration.trustProxy
    self.log = configuration.log
    self.isActive = maxCounters > 0 || perAddress != nil
  }

  /// Whether the store has room for one more counter at `now`; never waits. With `justRead`,
  /// the count was just read for this decision, so its age does not matter.
  ///
  /// A count older than ``countReuseSeconds`` is read again in the background (the decision
  /// is made on the one there is); at the ceiling, a count older than
  /// ``refusalCountSeconds`` is ``Room/unknown``.
  func room(now: Double = RateLimiter.now(), justRead: Bool = false) -> Room {
    guard maxCounters > 0 else { return .room }
    var lines: [String] = []
    let room = state.withLock { s -> Room in
      guard let counted = s.counted else { return .unknown }
      let age = now - s.countedAt
      let estimate = counted + s.madeSince
      if estimate >= maxCounters {
        if age > Self.refusalCountSeconds && !justRead { return .unknown }
        if !s.full {
          s.full = true
          lines.append(
            "refusing new counters: the store holds \(estimate) counters, the most allowed "
              + "(roadmapctl serve --max-counters \(maxCounters)); votes on counters that exist "
              + "still count, and requests with the admin token may still create them")
        }
        return .full
      }
      if s.full {
        s.full = false
        lines.append(
          "taking new counters again: the store holds \(estimate) counters, fewer than the most "
            + "allowed (\(maxCounters))")
      }
      if age > Self.countReuseSeconds && s.readsUnderWay == 0 {
        s.readsUnderWay += 1
        // No decision waits for it. The task takes the lock only once this call has let it go.
        Task { [self] in
          defer { state.withLock { $0.readsUnderWay -= 1 } }
          try await readCount()
        }
      }
      return .room
    }
    for line in lines { log(line) }
    return room
  }

  /// Whether another request was let make the counter `namespace`/`key` less than
  /// ``claimSeconds`` ago: then this one makes none (it votes on that one), and neither bound
  /// applies to it.
  func isClaimed(namespace: String, key: String, now: Double = RateLimiter.now()) -> Bool {
    let claim = Claim(namespace: namespace, key: key)
    return state.withLock { $0.isClaimed(claim, now) }
  }

  /// Takes one new counter, `namespace`/`key`, for `request`'s client: nil when it may make
  /// it (and then it counts toward the ceiling, and the key is claimed), else the refusal, in
  /// `dialect`'s shape: 429 with `Retry-After` (and the connection closed after it, as for
  /// the other rate limits) once the client has made as many as
  /// ``CounterServiceConfiguration/createLimit`` allows. A key another request claimed
  /// (votes on one new counter sent at once) takes nothing: it is one counter, counted once.
  func take(
    _ request: HTTPRequest, _ dialect: Dialect, namespace: String, key: String,
    now: Double = RateLimiter.now()
  ) -> Reply? {
    let claim = Claim(namespace: namespace, key: key)
    let client =
      perAddress == nil ? "" : CounterService.clientAddress(request, trustProxy: trustProxy)
    // The claim is looked at and made under one lock, so of requests for one key at once,
    // exactly one draws on its address's allowance.
    let retry = state.withLock { s -> Int? in
      if s.isClaimed(claim, now) { return nil }
      if let perAddress, let retry = perAddress.take(client: client, kind: .write, now: now) {
        return retry
      }
      s.claim(claim, now)
      return nil
    }
    if let retry {
      var reply = dialect.error(
        429,
        "too many new counters from this address: retry in \(retry) s (votes on counters "
          + "that exist are not limited by this)")
      reply.headers.append((name: "Retry-After", value: String(retry)))
      reply.headers.append((name: "Connection", value: "close"))
      return reply
    }
    return nil
  }

  /// Counts a new counter, `namespace`/`key`, made without asking (with the admin token)
  /// toward the ceiling, and claims its key.
  func noteMade(namespace: String, key: String, now: Double = RateLimiter.now()) {
    let claim = Claim(namespace: namespace, key: key)
    state.withLock { s in
      if !s.isClaimed(claim, now) { s.claim(claim, now) }
    }
  }

  /// The refusal at the ceiling, in `dialect`'s shape: 507 Insufficient Storage, which every
  /// client reads as a failure (the PyPI `countapi` client raises `NotOKError`, the Roadmap
  /// package's voter shows no count, FeatureVoting's voters keep the vote to send again as for
  /// any server error), without `Retry-After`: it lasts until the operator makes room.
  func fullReply(_ dialect: Dialect) -> Reply {
    dialect.error(
      507,
      "this server holds as many counters as it may (\(maxCounters)) and makes no new ones; "
        + "votes on counters that exist still count")
  }

  /// The whole decision for a new counter, `namespace`/`key`, of `request`, reading the
  /// store's count first when needed: nil when it may be made (or another request claimed
  /// it), else the refusal in `dialect`'s shape. Throws the store's failure to read its count
  /// (a 503, as any store failure).
  func admit(
    _ request: HTTPRequest, _ dialect: Dialect, namespace: String, key: String,
    now: Double = RateLimiter.now()
  ) async throws -> Reply? {
    if isClaimed(namespace: namespace, key: key, now: now) { return nil }
    var room = room(now: now)
    if room == .unknown {
      try await readCountUnlessUnderWay()
      room = self.room(now: now, justRead: true)
    }
    if room == .full { return fullReply(dialect) }
    return take(request, dialect, namespace: namespace, key: key, now: now)
  }

  /// Reads the store's count for a decision that needs it (``readCount()``), unless a count
  /// is known and another read is under way: then the decision rests on the count there is
  /// (at the ceiling, older than ``refusalCountSeconds`` by at most that read).
  ///
  /// At the ceiling every refusal whose count had grown old read the count itself, so a flood
  /// of made-up keys (what the ceiling is for) read it once per request that came while the
  /// first read ran, each queued before the votes' reads.
  private func readCountUnlessUnderWay() async throws {
    let reads = state.withLock { s -> Bool in
      if s.counted != nil, s.readsUnderWay > 0 { return false }
      s.readsUnderWay += 1
      return true
    }
    guard reads else { return }
    defer { state.withLock { $0.readsUnderWay -= 1 } }
    try await readCount()
  }

  /// Reads the store's count of counters, in the caller's task.
  ///
  /// In the caller's task, not in a task of its own: a new `Task` runs on the global executor,
  /// which a busy process (a test run's, say) may not get to for seconds, while the request
  /// that needs the count waits on the HTTP server's own handler threads. Only at start, when
  /// no count is known, do several requests that need it at once each read it; at the
  /// ceiling, one reads it and the others rest on the count there is
  /// (``readCountUnlessUnderWay()``).
  func readCount() async throws {
    // What was let make before the read began is in its count (but for a creation still
    // being written); what is let make while it runs may or may not be, so it stays counted
    // on top: the estimate is high by those rather than low (the count read does not wipe
    // out creations noted meanwhile, which let a store at its ceiling take one more).
    let began = RateLimiter.now()
    let madeBefore = state.withLock { $0.made }
    let counted = try await store.counterCount()
    state.withLock { s in
      guard s.counted == nil || began >= s.countedAt else { return }
      s.counted = counted
      s.countedAt = began
      s.madeAtCount = madeBefore
    }
  }
}
