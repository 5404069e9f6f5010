import FeatureVoting
import Foundation
import HTTPServer
import RoadmapFormat
import Testing
import VoteStore

/// `DurableVoter` when things go wrong between the queue, the server and the disk: failures that
/// are not refusals, cancelled flushes, state files that cannot be written or read, several
/// voters over one state file.
@Suite("DurableVoter failures")
struct DurableVoterFailureTests {
  /// An anonymous countapi voter for `ns1` (every vote is sent once, never retried).
  func anonymous(_ server: URL, _ directory: URL) -> DurableVoter<CountingAPIVoter> {
    DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: "ns1", dialect: .countapi, readRetry: RetryPolicy(attempts: 1)),
      namespace: "ns1", directory: directory)
  }

  /// A `roadmapctl serve` voter for `ns1` with the voter id `alice`.
  func identified(_ server: URL, _ directory: URL) throws -> DurableVoter<CountingAPIVoter> {
    DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: "ns1", identity: try VoterIdentity(appUserID: "alice"),
        readRetry: RetryPolicy(attempts: 1)),
      directory: directory)
  }

  /// Queues a vote for feature `id` in `directory` with the server unreachable.
  func queueOffline(_ id: String, in directory: URL) async throws {
    let closed = try ClosedPort()
    #expect(try await anonymous(closed.url, directory).castVote(for: RoadmapFeature(id: id)) == 1)
  }

  /// A feature finished since this voter queued a vote for it counts 0 in a board's read, as
  /// `count(for:)` says (the board's read said 1: the queued vote added to the finished
  /// feature's 0).
  @Test("a finished feature counts 0 in a board read, whatever was queued for it")
  func finishedFeatureIgnoresTheQueue() async throws {
    let directory = try temporaryDirectory()
    try await queueOffline("1", in: directory)
    let durable = anonymous(try ClosedPort().url, directory)
    let open = RoadmapFeature(id: "1")
    let finished = RoadmapFeature(id: "1", isFinished: true)
    #expect(await durable.fetch(for: [open]) == ["1": 1])
    #expect(await durable.fetch(for: [finished]) == ["1": 0])
    #expect(await durable.fetch(for: finished) == 0)
    #expect(try await durable.count(for: finished) == 0)
  }

  /// `ns1`'s counts in `service`'s store.
  func stored(_ service: LiveCounter, _ keys: String...) async throws -> CounterValues {
    try await service.store.values(namespace: "ns1", keys: keys)
  }

  // MARK: 1. Only a refusal drops a queued vote

  @Test("a flush cancelled mid-request keeps the queued vote")
  func cancelledFlush() async throws {
    let directory = try temporaryDirectory()
    try await queueOffline("1", in: directory)
    // The answer comes far later than the wait below may take on a loaded machine (in CI a
    // 5 s answer once came before the cancel did): the cancel always comes first.
    let server = try LocalServer { router in
      router.get("/hit/:ns/:key") { _ in
        try? await Task.sleep(for: .seconds(90))
        return json(#"{"value":1}"#)
      }
    }
    defer { Task { await server.stop() } }
    let durable = DurableVoter(
      base: CountingAPIVoter(
        server: server.url, namespace: "ns1", dialect: .countapi, timeout: 120,
        readRetry: RetryPolicy(attempts: 1)),
      namespace: "ns1", directory: directory)
    let flush = Task { try await durable.flush() }
    let deadline = Date().addingTimeInterval(60)
    while server.targets.isEmpty && Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(server.targets.count == 1)
    flush.cancel()
    let report = try await flush.value
    #expect(report.refused.isEmpty && report.sent.isEmpty)
    #expect(report.remaining == 1)
    #expect(report.stoppedBy?.message.contains("cancelled") == true)
    #expect(try durable.pendingVotes().map(\.featureID) == ["1"])
    #expect(try durable.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try durable.takeRefusals().isEmpty)
  }

  /// A vote that timed out, was rate limited or met a 5xx may or may not have been counted.
  /// It was lost: the app showed it as cast, the state said it was not, and (when the server
  /// had counted it) the unvote that followed sent nothing. With a voter id on `roadmapctl
  /// serve` sending it again changes nothing, so it waits in the queue as an offline one
  /// does; an anonymous one is not queued, since sent again it could count twice.
  @Test(
    "a vote with no answer, a 429 or a 5xx is queued where sending it again changes nothing",
    arguments: ["slow", "429", "503"])
  func unansweredVoteIsQueuedWhereRepeatable(_ failure: String) async throws {
    // The slow answer comes far later than the voters' timeout on any machine.
    let server = try LocalServer { router in
      router.get("/slow/hit/:ns/:key") { _ in
        try? await Task.sleep(for: .seconds(300))
        return json(#"{"value":1}"#)
      }
      router.get("/429/hit/:ns/:key") { _ in
        json(#"{"error":"slow down"}"#, status: 429, headers: ["Retry-After": "60"])
      }
      router.get("/503/hit/:ns/:key") { _ in json(#"{"error":"store unavailable"}"#, status: 503) }
    }
    defer { Task { await server.stop() } }
    let base = server.url.appendingPathComponent(failure)
    let feature = RoadmapFeature(id: "1")
    let identified = DurableVoter(
      base: CountingAPIVoter(
        server: base, namespace: "ns1", identity: try VoterIdentity(appUserID: "alice"),
        timeout: 0.5, readRetry: RetryPolicy(attempts: 1)),
      directory: try temporaryDirectory())
    #expect(try await identified.castVote(for: feature) == 1)
    #expect(try identified.pendingVotes().map(\.featureID) == ["1"])
    #expect(try identified.hasVoted(for: feature))
    let anonymous = DurableVoter(
      base: CountingAPIVoter(
        server: base, namespace: "ns1", dialect: .countapi, timeout: 0.5,
        readRetry: RetryPolicy(attempts: 1)),
      namespace: "ns1", directory: try temporaryDirectory())
    let error = await votingError { _ = try await anonymous.castVote(for: feature) }
    let kind: VotingError.Kind =
      switch failure {
      case "slow": .timedOut
      case "429": .rateLimited
      default: .serverError
      }
    #expect(error?.kind == kind, "\(String(describing: error))")
    #expect(try anonymous.pendingVotes().isEmpty)
    #expect(try !anonymous.hasVoted(for: feature))
  }

  /// A vote whose task was cancelled after its request left (a SwiftUI `.task` ended as its
  /// view went away) may or may not have been counted. It failed and was not queued, so the
  /// voted state said "not voted" whatever the server did. With a voter id on `roadmapctl
  /// serve` sending it again changes nothing, so it waits in the queue; an anonymous one still
  /// fails, since sent again it could count twice.
  @Test("a vote cancelled while it is sent is queued where sending it again changes nothing")
  func cancelledVoteIsQueuedWhereRepeatable() async throws {
    // Far later than the wait below may take on a loaded machine: the cancel always comes
    // first.
    let server = try LocalServer { router in
      router.get("/hit/:ns/:key") { _ in
        try? await Task.sleep(for: .seconds(90))
        return json(#"{"value":1}"#)
      }
    }
    defer { Task { await server.stop() } }
    let feature = RoadmapFeature(id: "1")
    let identified = DurableVoter(
      base: CountingAPIVoter(
        server: server.url, namespace: "ns1", identity: try VoterIdentity(appUserID: "alice"),
        timeout: 120, readRetry: RetryPolicy(attempts: 1)),
      directory: try temporaryDirectory())
    let anonymous = DurableVoter(
      base: CountingAPIVoter(
        server: server.url, namespace: "ns1", dialect: .countapi, timeout: 120,
        readRetry: RetryPolicy(attempts: 1)),
      namespace: "ns1", directory: try temporaryDirectory())
    var results: [Result<Int, VotingError>] = []
    for (sent, voter) in [identified, anonymous].enumerated() {
      let task = Task { () -> Result<Int, VotingError> in
        do throws(VotingError) {
          return .success(try await voter.castVote(for: feature))
        } catch {
          return .failure(error)
        }
      }
      let deadline = Date().addingTimeInterval(60)
      while server.targets.count == sent && Date() < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(server.targets.count == sent + 1)
      task.cancel()
      results.append(await task.value)
    }
    #expect(try results[0].get() == 1)
    #expect(try identified.pendingVotes().map(\.featureID) == ["1"])
    #expect(try identified.hasVoted(for: feature))
    guard case .failure(let error) = results[1] else {
      Issue.record("the anonymous vote answered \(results[1])")
      return
    }
    #expect(error.kind == .invalidRequest && error.message.contains("cancelled"), "\(error)")
    #expect(try anonymous.pendingVotes().isEmpty)
    #expect(try !anonymous.hasVoted(for: feature))
  }

  /// The Roadmap package shows a row's `votes` from the JSON (a roadmap `roadmapctl serve`
  /// publishes has them) and reads no count: a vote queued then answered 1 on a row that
  /// showed 80, and the row showed 1.
  @Test("before any count was read, offline answers start from the feature's own votes")
  func queuedVoteCountsFromTheFeaturesVotes() async throws {
    let closed = try ClosedPort()
    let durable = anonymous(closed.url, try temporaryDirectory())
    let shown = RoadmapFeature(id: "1", votes: 80)
    #expect(try await durable.castVote(for: shown) == 81)
    #expect(try await durable.withdrawVote(for: shown) == 80)
    #expect(try await durable.castVote(for: RoadmapFeature(id: "2")) == 1)
    // An unvote of a feature not voted for sends nothing and answers the count as it stands:
    // offline, with none read, the feature's own votes (it answered 0 on a row showing 80).
    #expect(try await durable.withdrawVote(for: RoadmapFeature(id: "3", votes: 80)) == 80)
  }

  @Test("a flush whose task is cancelled before it starts sends nothing and keeps the queue")
  func flushCancelledBeforeItStarts() async throws {
    let directory = try temporaryDirectory()
    try await queueOffline("1", in: directory)
    let server = try LocalServer { router in
      router.get("/hit/:ns/:key") { _ in json(#"{"value":1}"#) }
    }
    defer { Task { await server.stop() } }
    let durable = anonymous(server.url, directory)
    let report = try await Task { () throws(VotingError) -> FlushReport in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await durable.flush()
    }.value
    #expect(report.sent.isEmpty && report.remaining == 1)
    #expect(report.stoppedBy?.message.contains("cancelled") == true)
    try await Task.sleep(for: .milliseconds(500))
    #expect(server.targets.isEmpty)
    #expect(try durable.pendingVotes().map(\.featureID) == ["1"])
    // Not cancelled, the next flush sends it.
    #expect(try await durable.flush().sent.map(\.featureID) == ["1"])
    #expect(server.targets == ["/hit/ns1/feature1"])
  }

  @Test("an HTML page (a captive portal) keeps the queued vote, sent once the server answers")
  func badAnswerKeepsVote() async throws {
    let directory = try temporaryDirectory()
    try await queueOffline("1", in: directory)
    let portal = try LocalServer { router in
      router.get("/hit/:ns/:key") { _ in
        HTTPResponse(
          status: 200, headers: HTTPHeaders([("Content-Type", "text/html")]),
          body: Array("<html><body>Sign in to the Wi-Fi</body></html>".utf8))
      }
    }
    let behindPortal = anonymous(portal.url, directory)
    let report = try await behindPortal.flush()
    #expect(report.stoppedBy?.kind == .badAnswer)
    #expect(report.refused.isEmpty && report.remaining == 1)
    // An implicit flush keeps it too, and stores no refusal.
    _ = await behindPortal.fetch(for: RoadmapFeature(id: "2"))
    #expect(try behindPortal.takeRefusals().isEmpty)
    #expect(try behindPortal.hasVoted(for: RoadmapFeature(id: "1")))
    await portal.stop()

    let service = try LiveCounter()
    let online = anonymous(service.url, directory)
    #expect(try await online.flush().sent.map(\.featureID) == ["1"])
    #expect(try await stored(service, "feature1") == ["feature1": 1])
    await service.stop()
  }

  /// A voter of the Roadmap package's three methods that always fails.
  struct FailingPlainVoter: FeatureVoter {
    func fetch(for feature: RoadmapFeature) async -> Int { 0 }
    func vote(for feature: RoadmapFeature) async -> Int? { nil }
    func unvote(for feature: RoadmapFeature) async -> Int? { nil }
  }

  /// A voter of its own (not this module's) whose counts are all `Int.max` and whose writes
  /// find no server.
  struct LargestCountVoter: FeatureVoter {
    func fetch(for feature: RoadmapFeature) async -> Int { .max }
    func vote(for feature: RoadmapFeature) async -> Int? { nil }
    func unvote(for feature: RoadmapFeature) async -> Int? { nil }
    func count(for feature: RoadmapFeature) async throws(VotingError) -> Int { .max }
    func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
      throw .offline("no server")
    }
    func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
      throw .offline("no server")
    }
  }

  @Test("a queued vote on a base's Int.max count answers Int.max instead of trapping")
  func queuedVoteOnLargestCount() async throws {
    let durable = DurableVoter(
      base: LargestCountVoter(), namespace: "ns1", directory: try temporaryDirectory())
    let feature = RoadmapFeature(id: "1")
    #expect(try await durable.count(for: feature) == .max)
    // Offline: queued, and answered as the last count seen plus one, which cannot go past Int.max.
    #expect(try await durable.castVote(for: feature) == .max)
    #expect(try durable.pendingVotes().map(\.featureID) == ["1"])
    #expect(try await durable.castVote(for: feature) == .max)
    #expect(try await durable.count(for: feature) == .max)
    #expect(await durable.fetch(for: feature) == .max)
    #expect(try await durable.counts(for: features("1")) == ["1": .max])
    #expect(await durable.fetch(for: features("1")) == ["1": .max])
  }

  @Test("a plain voter's unexplained failure keeps the queued vote")
  func unexplainedKeepsVote() async throws {
    let directory = try temporaryDirectory()
    try await queueOffline("1", in: directory)
    let plain = DurableVoter(base: FailingPlainVoter(), namespace: "ns1", directory: directory)
    let report = try await plain.flush()
    #expect(report.stoppedBy?.kind == .unexplained)
    #expect(report.refused.isEmpty && report.remaining == 1)
    #expect(try plain.hasVoted(for: RoadmapFeature(id: "1")))
  }

  @Test("a refusal taken later is the server's error: its status, reason and message")
  func takenRefusalKeepsTheError() async throws {
    let directory = try temporaryDirectory()
    try await queueOffline("1", in: directory)
    let service = try LiveCounter { $0.requireVoter = true }
    let durable = anonymous(service.url, directory)
    _ = await durable.fetch(for: RoadmapFeature(id: "1"))
    let refusal = try #require(try durable.takeRefusals().first)
    #expect(refusal.error.kind == .refused && refusal.error.status == 403)
    #expect(
      refusal.error.message.hasPrefix("\(service.url.absoluteString)/hit/ns1/feature1 refused"))
    #expect(refusal.error.reason?.contains("refuses anonymous votes") == true)
    await service.stop()
  }

  @Test("refusals in a state file of an earlier version load with what they kept")
  func earlierRefusals() async throws {
    let directory = try temporaryDirectory()
    let durable = anonymous(try ClosedPort().url, directory)
    let earlier = """
      {"namespace":"ns1","queue":[],"refusals":[\
      {"message":"the request to http://h/hit/ns1/feature1 was cancelled",\
      "vote":{"action":"vote","castAt":1764570000,"featureID":"1"}},\
      {"message":"http://h/hit/ns1/feature2 refused (403): no anonymous votes",\
      "reason":"no anonymous votes","status":403,\
      "vote":{"action":"vote","castAt":1764570001,"featureID":"2"}},\
      {"message":"unexpected answer from http://h/hit/ns1/feature3: not JSON","status":200,\
      "vote":{"action":"vote","castAt":1764570002,"featureID":"3"}}],\
      "version":1,"voted":["4"]}
      """
    try Data(earlier.utf8).write(to: durable.stateFile)
    #expect(try durable.hasVoted(for: RoadmapFeature(id: "4")))
    let refusals = try durable.takeRefusals()
    #expect(refusals.map(\.vote.featureID) == ["1", "2", "3"])
    let errors = refusals.map(\.error)
    #expect(errors.map(\.kind) == [.unexplained, .refused, .badAnswer])
    #expect(errors.map(\.status) == [nil, 403, 200])
    #expect(
      errors.map(\.message) == [
        "the request to http://h/hit/ns1/feature1 was cancelled",
        "http://h/hit/ns1/feature2 refused (403): no anonymous votes",
        "unexpected answer from http://h/hit/ns1/feature3: not JSON",
      ])
    #expect(errors[1].reason == "no anonymous votes")
    #expect(try durable.takeRefusals().isEmpty)
  }

  // MARK: 2. The server's acceptance stands when the disk fails

  @Test("a vote the server accepted is answered even when the state file cannot be written")
  func acceptedDespiteDisk() async throws {
    let service = try LiveCounter()
    // The state directory's parent is a file: nothing can be created there, even by root.
    let parent = try temporaryDirectory().appendingPathComponent("not-a-directory")
    try Data("x".utf8).write(to: parent)
    let directory = parent.appendingPathComponent("state")
    let feature = RoadmapFeature(id: "1")
    do {
      let durable = try identified(service.url, directory)
      #expect(try await durable.castVote(for: feature) == 1)
      #expect(try durable.hasVoted(for: feature))
      // Voting again sends nothing: this process knows the vote stands.
      #expect(try await durable.castVote(for: feature) == 1)
      #expect(service.targets.filter { $0.hasPrefix("/hit/") }.count == 1)
      #expect(!FileManager.default.fileExists(atPath: durable.stateFile.path))
    }
    // After a restart the file never learned of the vote, so it is sent again: the server
    // counts a voter id once.
    let restarted = try identified(service.url, directory)
    #expect(try await restarted.castVote(for: feature) == 1)
    #expect(try await stored(service, "feature1") == ["feature1": 1])
    await service.stop()
  }

  @Test("a queued vote the server accepted is not sent again when the file cannot record it")
  func flushedDespiteDisk() async throws {
    let root = try temporaryDirectory()
    let directory = root.appendingPathComponent("state")
    let service = try LiveCounter()
    let closed = try ClosedPort()
    let offline = anonymous(closed.url, directory)
    let online = anonymous(service.url, directory)
    #expect(try await offline.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await offline.castVote(for: RoadmapFeature(id: "2")) == 1)
    // The disk goes away under the app: the state directory is now a file.
    try FileManager.default.moveItem(at: directory, to: root.appendingPathComponent("moved"))
    try Data("x".utf8).write(to: directory)
    let report = try await online.flush()
    #expect(report.sent.map(\.featureID) == ["1"])
    #expect(report.stoppedBy?.kind == .storage && report.remaining == 1)
    #expect(try online.pendingVotes().map(\.featureID) == ["2"])
    #expect(try online.hasVoted(for: RoadmapFeature(id: "1")))
    // The disk is back: the rest is sent, and the first vote is not sent twice.
    try FileManager.default.removeItem(at: directory)
    let again = try await online.flush()
    #expect(again.sent.map(\.featureID) == ["2"] && again.remaining == 0)
    #expect(try await stored(service, "feature1", "feature2") == ["feature1": 1, "feature2": 1])
    let saved =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: online.stateFile)) as? [String: Any]
    #expect((saved?["voted"] as? [String])?.sorted() == ["1", "2"])
    #expect((saved?["queue"] as? [Any])?.isEmpty == true)
    await service.stop()
  }

  @Test("a damaged state file leaves reads with the server's counts")
  func damagedStateReads() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let other = anonymous(service.url, try temporaryDirectory())
    _ = try await other.castVote(for: RoadmapFeature(id: "1"))
    let durable = try identified(service.url, directory)
    try Data("{\"version\":1,\"voted\":".utf8).write(to: durable.stateFile)
    #expect(try await durable.count(for: RoadmapFeature(id: "1")) == 1)
    #expect(await durable.fetch(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await durable.counts(for: features("1", "2")) == ["1": 1, "2": 0])
    #expect(await durable.fetch(for: features("1", "2")) == ["1": 1, "2": 0])
    // Writes still refuse to touch it.
    #expect(
      await votingError { try await durable.castVote(for: RoadmapFeature(id: "2")) }?.kind
        == .storage)
    #expect(try Data(contentsOf: durable.stateFile) == Data("{\"version\":1,\"voted\":".utf8))
    await service.stop()
  }

  // MARK: 3. The batch read remembers the counts it saw

  @Test("a vote queued after a board loaded through the batch fetch is the last count plus one")
  func batchFetchRemembersCounts() async throws {
    let service = try LiveCounter()
    let other = anonymous(service.url, try temporaryDirectory())
    _ = try await other.castVote(for: RoadmapFeature(id: "1"))
    let seeding = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    _ = try await seeding.castVote(for: RoadmapFeature(id: "1"))
    _ = try await seeding.castVote(for: RoadmapFeature(id: "1"))
    let durable = try identified(service.url, try temporaryDirectory())
    #expect(await durable.fetch(for: features("1", "2")) == ["1": 3, "2": 0])
    await service.stop()
    #expect(try await durable.castVote(for: RoadmapFeature(id: "1")) == 4)
    #expect(try durable.pendingVotes().map(\.featureID) == ["1"])
    // A board read that fails (every row 0) does not replace the counts seen.
    _ = await durable.fetch(for: features("1", "2"))
    #expect(try await durable.withdrawVote(for: RoadmapFeature(id: "1")) == 3)
  }

  // MARK: 4. Several voters over one state file

  @Test("two voters over one state file in one process lose none of each other's votes")
  func twoVotersOneFile() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let one = try identified(service.url, directory)
    let two = try identified(service.url, directory)
    // Both have read the (empty) state before either votes.
    #expect(try !one.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try !two.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try await one.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await two.castVote(for: RoadmapFeature(id: "2")) == 1)
    #expect(try two.hasVoted(for: RoadmapFeature(id: "1")))
    // Many at once, alternating voters (a voter made in every SwiftUI `body`).
    try await withThrowingTaskGroup(of: Int.self) { group in
      for id in 3..<13 {
        let fresh = try identified(service.url, directory)
        let voter = id.isMultiple(of: 2) ? one : fresh
        group.addTask { try await voter.castVote(for: RoadmapFeature(id: "\(id)")) }
      }
      for try await count in group { #expect(count == 1) }
    }
    let saved =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: one.stateFile)) as? [String: Any]
    #expect((saved?["voted"] as? [String])?.count == 12)
    #expect(try one.votedFeatureIDs().count == 12)
    // Voting again through the other voter sends nothing.
    #expect(try await two.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(service.targets.filter { $0.hasPrefix("/hit/") }.count == 12)
    await service.stop()
  }
}
