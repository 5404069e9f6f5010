import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// The bounds on new counters (``CounterCreationGuard``): nothing limited how many counters
/// anyone could make with `/hit/ns/<random key>` (or `/create`, counterapi's `/up` and
/// `/down`), about 150 bytes of disk each, so one client, or a few hundred addresses behind
/// a proxy, filled the disk. Now each address may make ``CounterServiceConfiguration/createLimit``
/// of them and the store holds at most ``CounterServiceConfiguration/maxCounters`` made so;
/// votes on counters that exist, the admin token and the board API are never limited by them.
@Suite struct CounterCreationLimitTests {
  static let admin = "Bearer \(ServiceHarness.token)"

  /// A harness whose store keeps counters in memory (as `serve` opens it), with these bounds.
  static func harness(createLimit: RateLimit = .unlimited, maxCounters: Int = 0) throws
    -> ServiceHarness
  {
    try ServiceHarness(options: SQLiteVoteStoreOptions(memoryCache: true)) {
      $0.createLimit = createLimit
      $0.maxCounters = maxCounters
    }
  }

  /// A limit of `burst` new counters that does not refill within a test.
  static func allowance(_ burst: Double) -> RateLimit {
    RateLimit(burst: burst, perSecond: 1e-6)
  }

  @Test func eachAddressMakesOnlyItsAllowanceOfNewCounters() async throws {
    let h = try Self.harness(createLimit: Self.allowance(3))
    #expect(await h.call("/hit/app.example/key1").status == 200)
    #expect(await h.call("/hit/app.example/key2").status == 200)
    #expect(await h.call("/v1/app.example/key3/up").status == 200)
    // The fourth new counter of this address, in each dialect's error shape.
    let hit = await h.call("/hit/app.example/key4")
    #expect(hit.status == 429)
    #expect(hit.body.hasPrefix(#"{"error":"too many new counters from this address: retry in "#))
    #expect(Int(hit.headers["Retry-After"] ?? "") ?? 0 >= 1)
    #expect(hit.headers["Connection"] == "close")
    let up = await h.call("/v1/app.example/key4/up")
    #expect(up.status == 429)
    #expect(up.object["code"] as? Int == 429, "\(up.body)")
    #expect(await h.call("/v1/app.example/key4/down").status == 429)
    #expect(await h.call("/create?namespace=app.example&key=key4").status == 429)
    // Nothing was made by the refusals.
    #expect(await h.call("/get/app.example/key4").status == 404)
    // A key that exists is still /create's 409, not a refusal of a new counter.
    let exists = await h.call("/create?namespace=app.example&key=key1")
    #expect(exists.status == 409)
    #expect(exists.body == #"{"namespace":null,"key":null,"value":null}"#)
    // Votes on counters that exist are not limited by it.
    #expect(await h.call("/hit/app.example/key1").body == #"{"value":2}"#)
    #expect(await h.call("/v1/app.example/key3/down").status == 200)
    // Another address has its own allowance; the admin token none.
    #expect(await h.call("/hit/app.example/key4", from: "10.0.0.2").status == 200)
    var headers = HTTPHeaders()
    headers.add(name: "Authorization", value: Self.admin)
    #expect(await h.call("/hit/app.example/key5", headers: headers).status == 200)
    #expect(
      await h.call("/create?namespace=app.example&key=key6&token=\(ServiceHarness.token)").status
        == 200)
    // An IPv6 client counts per /64, as the rate limits count it.
    for (index, address) in ["2001:db8::1", "2001:db8::2", "2001:db8::3"].enumerated() {
      #expect(await h.call("/hit/app.example/vote\(index)", from: address).status == 200)
    }
    #expect(await h.call("/hit/app.example/vote9", from: "2001:db8::ffff").status == 429)
    await h.tearDown()
  }

  /// Votes on a counter the store's memory knows to be missing are planned on the I/O
  /// thread (``CounterService/immediateHandler``): the same allowance holds there.
  @Test func theIOThreadsVotesKeepTheAllowanceToo() async throws {
    let h = try Self.harness(createLimit: Self.allowance(2))
    let immediate = try #require(h.service.immediateHandler)
    for key in ["mem1", "mem2", "mem3", "mem4"] {
      // A read that misses tells memory the key does not exist.
      #expect(await h.call("/get/app.example/\(key)").status == 404)
    }
    var statuses: [Int] = []
    var onTheIOThread = 0
    for target in ["/hit/app.example/mem1", "/v1/app.example/mem2/up", "/hit/app.example/mem3"] {
      // Memory may have let a key go (it never must keep one): then the ordinary route.
      var answer = await Self.offer(immediate, target)
      if answer != nil { onTheIOThread += 1 }
      if answer == nil { answer = await h.service.handler(Self.request(target)) }
      statuses.append(answer?.status ?? 0)
    }
    #expect(statuses == [200, 200, 429])
    #expect(onTheIOThread > 0)
    #expect(await h.call("/get/app.example/mem3").status == 404)
    await h.tearDown()
  }

  @Test func theCeilingRefusesNewCountersAndNothingElse() async throws {
    let h = try Self.harness(maxCounters: 3)
    for key in ["key1", "key2"] { #expect(await h.call("/hit/app.example/\(key)").status == 200) }
    #expect(await h.call("/create?namespace=app.example&key=key3").status == 200)
    let hit = await h.call("/hit/app.example/key4")
    #expect(hit.status == 507)
    #expect(
      hit.body
        == #"{"error":"this server holds as many counters as it may (3) and makes no new ones; votes on counters that exist still count"}"#
    )
    #expect(hit.headers["Retry-After"] == nil)
    let up = await h.call("/v1/app.example/key4/up")
    #expect(up.status == 507)
    #expect(up.object["code"] as? Int == 507, "\(up.body)")
    #expect(await h.call("/create?namespace=app.example&key=key4").status == 507)
    #expect(await h.call("/get/app.example/key4").status == 404)
    // JSONP says the status in its body, as for every error.
    #expect(
      await h.call("/hit/app.example/key4?callback=cb").body.hasPrefix(
        #"/**/cb({"status":507,"error":"this server holds"#))
    // Votes on counters that exist go on; the admin may still make new ones.
    #expect(await h.call("/hit/app.example/key1").body == #"{"value":2}"#)
    var headers = HTTPHeaders()
    headers.add(name: "Authorization", value: Self.admin)
    #expect(await h.call("/hit/app.example/key4", headers: headers).status == 200)
    #expect(await h.call("/set/app.example/key5?value=7", headers: headers).status == 200)
    // One log line for the operator, however many refusals.
    let lines = h.logged.withLock { $0 }.filter { $0.hasPrefix("refusing new counters") }
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("--max-counters 3") == true)
    await h.tearDown()
  }

  /// The board API's votes make the counter of a feature an admin made: never refused.
  @Test func theBoardsVotesAreNotBounded() async throws {
    let harness = try BoardHarness {
      $0.maxCounters = 1
      $0.createLimit = Self.allowance(1)
    }
    await harness.seed()
    _ = await harness.call(.get, "/hit/other.app/filler")
    for id in [1, 2] {
      let vote = await harness.call(
        .post, "/api/v1/\(BoardHarness.project)/features/\(id)/vote", voter: "voter-\(id)")
      #expect(vote.status == 200, "\(vote.body)")
      #expect(vote.object["votes"] as? Int == 1)
    }
    #expect(await harness.call(.get, "/hit/other.app/more").status == 507)
    await harness.tearDown()
  }

  /// Counters made elsewhere (another instance on the same PostgreSQL database, `votes
  /// import`) are seen once the guard reads the store's count again: at the ceiling before
  /// a refusal rests on a count older than a few seconds, and otherwise at most a minute on.
  @Test func theCountIsReadAgain() async throws {
    let h = try Self.harness(maxCounters: 3)
    let guardian = CounterCreationGuard(
      store: h.store,
      configuration: ServiceHarness.configuration {
        $0.maxCounters = 3
        $0.log = { _ in }
      })
    #expect(guardian.room() == .unknown)
    try await guardian.readCount()
    #expect(guardian.room(justRead: true) == .room)
    for key in ["ext1", "ext2", "ext3"] {
      #expect(await h.call("/hit/app.example/\(key)").status == 200)
    }
    // This guard did not see them made; a minute on, it reads the count again.
    #expect(guardian.room(justRead: true) == .room)
    let later = RateLimiter.now() + CounterCreationGuard.countReuseSeconds + 1
    #expect(guardian.room(now: later) == .room)
    let deadline = Date().addingTimeInterval(120)
    while guardian.room(justRead: true) != .full, Date() < deadline {
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    #expect(guardian.room(justRead: true) == .full)
    // A refusal rests only on a recent count.
    let stale = RateLimiter.now() + CounterCreationGuard.refusalCountSeconds + 1
    #expect(guardian.room(now: stale) == .unknown)
    await h.tearDown()
  }

  /// Votes sent at once on one new counter (users behind one NAT voting on a feature
  /// nobody voted on yet) make one counter: each drew on the address's allowance, so with
  /// an allowance of 2, three such votes had one refused with 429 ("votes on counters that
  /// exist are not limited") although the counter was made, and left no allowance for
  /// the next new counter. Only the request that makes the counter draws on it now.
  @Test func votesAtOnceOnOneNewCounterTakeOneOfTheAllowance() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("creation-claims-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // No memory cache: each vote reads the store, and finds no counter until one is made.
    let store = GatedStore(try SQLiteVoteStore(directory: directory))
    let service = CounterService(
      store: store,
      configuration: ServiceHarness.configuration { $0.createLimit = Self.allowance(2) })
    func hit(_ key: String, voter: String) async -> HTTPResponse {
      await service.handler(Self.request("/hit/app.example/\(key)?voter=\(voter)"))
    }
    let answered = Locked(0)
    let statuses = await withTaskGroup(of: Int.self) { group in
      for voter in ["v1", "v2", "v3"] {
        group.addTask {
          let status = await hit("fresh", voter: voter).status
          answered.withLock { $0 += 1 }
          return status
        }
      }
      // Every vote has read that the counter is missing (and is held before writing), or
      // was answered without writing; then the writes go on.
      let deadline = Date().addingTimeInterval(120)
      while store.held + answered.withLock({ $0 }) < 3, Date() < deadline {
        try? await Task.sleep(nanoseconds: 10_000_000)
      }
      store.open()
      var statuses: [Int] = []
      for await status in group { statuses.append(status) }
      return statuses
    }
    #expect(statuses == [200, 200, 200])
    #expect(try await store.record(namespace: "app.example", key: "fresh")?.value == 3)
    // One of the two was taken: one more new counter, then the allowance is spent.
    #expect(await hit("second", voter: "v1").status == 200)
    #expect(await hit("third", voter: "v1").status == 429)
    await store.close()
  }

  /// The I/O thread's votes take the allowance through the same call: a second take for a
  /// key already being made takes nothing.
  @Test func aKeyBeingMadeIsTakenOnce() async throws {
    let h = try Self.harness()
    let guardian = CounterCreationGuard(
      store: h.store,
      configuration: ServiceHarness.configuration { $0.createLimit = Self.allowance(2) })
    let request = Self.request("/hit/app.example/fresh")
    for _ in 0..<5 {
      #expect(guardian.take(request, .countapi, namespace: "app.example", key: "fresh") == nil)
    }
    #expect(guardian.isClaimed(namespace: "app.example", key: "fresh"))
    #expect(!guardian.isClaimed(namespace: "app.example", key: "other"))
    #expect(guardian.take(request, .countapi, namespace: "app.example", key: "other") == nil)
    #expect(
      guardian.take(request, .countapi, namespace: "app.example", key: "third")?.status == 429)
    await h.tearDown()
  }

  /// At the ceiling, a refusal whose count is older than a few seconds has it read again:
  /// every such request that came while the first read ran read it too, so a flood of
  /// made-up keys at the ceiling (what it is for) read the store's count once per request
  /// (on PostgreSQL, whole-table counts). One reads it now; the others rest on the count
  /// there is.
  @Test func refusalsAtTheCeilingReadTheCountOnce() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("creation-count-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = GatedStore(try SQLiteVoteStore(directory: directory), holdingCounts: true)
    store.open()
    let guardian = CounterCreationGuard(
      store: store,
      configuration: ServiceHarness.configuration {
        $0.maxCounters = 2
        $0.log = { _ in }
      })
    for key in ["key1", "key2"] {
      _ = try await store.create(CounterCreation(namespace: "app.example", key: key))
    }
    try await guardian.readCount()
    #expect(guardian.room(justRead: true) == .full)
    store.shut()
    // Refusals once that count is too old to rest on without a read.
    let later = RateLimiter.now() + CounterCreationGuard.refusalCountSeconds + 1
    let answered = Locked(0)
    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<5 {
        group.addTask {
          let reply = try await guardian.admit(
            Self.request("/hit/app.example/new\(index)"), .countapi, namespace: "app.example",
            key: "new\(index)", now: later)
          answered.withLock { $0 += 1 }
          return reply?.status ?? 200
        }
      }
      let deadline = Date().addingTimeInterval(120)
      while store.held + answered.withLock({ $0 }) < 5, Date() < deadline {
        try await Task.sleep(nanoseconds: 10_000_000)
      }
      #expect(store.held == 1, "reads of the count at once")
      store.open()
      var statuses: [Int] = []
      for try await status in group { statuses.append(status) }
      return statuses
    }
    #expect(statuses == [507, 507, 507, 507, 507])
    await store.close()
  }

  /// Bug: a count read that ended after a new counter was let make (and before that counter
  /// was in the store, or read before it) reset the guard's tally of counters made since, so
  /// that counter was in neither: a CI run's store at its ceiling of 4 took a fifth. What is
  /// let make while a read runs now stays counted on top of it.
  @Test func aCounterLetMakeWhileTheCountIsReadStaysCounted() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("creation-count-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = GatedStore(try SQLiteVoteStore(directory: directory), holdingCounts: true)
    store.open()
    let guardian = CounterCreationGuard(
      store: store,
      configuration: ServiceHarness.configuration {
        $0.maxCounters = 3
        $0.log = { _ in }
      })
    for key in ["key1", "key2"] {
      _ = try await store.create(CounterCreation(namespace: "app.example", key: key))
    }
    try await guardian.readCount()
    #expect(guardian.room(justRead: true) == .room)
    store.shut()
    let reading = Task { try await guardian.readCount() }
    let deadline = Date().addingTimeInterval(120)
    while store.held < 1, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(store.held == 1)
    // Let make while the count is read; not in the store yet when the read is made.
    let request = Self.request("/hit/app.example/new1")
    #expect(guardian.take(request, .countapi, namespace: "app.example", key: "new1") == nil)
    store.open()
    try await reading.value
    #expect(guardian.room(justRead: true) == .full)
    await store.close()
  }

  static func request(_ target: String, from address: String = "10.0.0.1") -> HTTPRequest {
    HTTPRequest(method: .get, target: target, remoteAddress: address)
  }

  /// What the immediate handler did with `target`: its answer (waiting for a deferred one),
  /// or nil when it passed.
  static func offer(_ immediate: HTTPImmediateHandler, _ target: String) async -> HTTPResponse? {
    let box = DeferredAnswer()
    switch immediate(request(target), HTTPResponder { box.set($0) }) {
    case .response(let response)?: return response
    case .deferred?: return await box.wait()
    case nil: return nil
    }
  }
}

/// A vote store that holds every ``apply(_:)`` (or every ``counterCount()``) while shut,
/// until ``open()``, then hands every call to the SQLite store beneath it.
private final class GatedStore: ForwardingVoteStore {
  let inner: SQLiteVoteStore
  /// Whether the gate holds counts rather than writes.
  private let holdsCounts: Bool
  private let gate = Locked<(open: Bool, held: Int, waiters: [CheckedContinuation<Void, Never>])>(
    (false, 0, []))

  init(_ inner: SQLiteVoteStore, holdingCounts: Bool = false) {
    self.inner = inner
    self.holdsCounts = holdingCounts
  }

  /// Holds the calls it gates again, from now on.
  func shut() { gate.withLock { $0.open = false } }

  /// How many writes came to the gate while it was shut.
  var held: Int { gate.withLock { $0.held } }

  /// Lets the held writes and every later one through.
  func open() {
    let waiters = gate.withLock { g in
      g.open = true
      defer { g.waiters = [] }
      return g.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits while the gate is shut.
  private func pass() async {
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      let pass = gate.withLock { g -> Bool in
        if g.open { return true }
        g.held += 1
        g.waiters.append(waiter)
        return false
      }
      if pass { waiter.resume() }
    }
  }

  func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult {
    if !holdsCounts { await pass() }
    return try await inner.apply(mutation)
  }

  func counterCount() async throws(VoteStoreError) -> Int64 {
    if holdsCounts { await pass() }
    return try await inner.counterCount()
  }
}
