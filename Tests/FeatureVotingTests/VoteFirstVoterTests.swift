import CounterService
import FeatureVoting
import Foundation
import HTTPServer
import RoadmapFormat
import Testing
import VoteFirstAPI
import VoteStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The counter service with the VoteFirst board API, in-process on a real socket (127.0.0.1,
/// port 0), over a real SQLite store in its own directory; it counts the requests it gets.
private final class BoardServer: Sendable {
  static let token = "voter-test-token"
  let directory: URL
  let store: SQLiteVoteStore
  let boards: SQLiteBoardStore
  let server: HTTPServer
  let port: Int
  private let requests = RequestCount()

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "votefirst-voter-\(UUID().uuidString)")
    store = try SQLiteVoteStore(directory: directory)
    boards = try SQLiteBoardStore(sharing: store)
    let service = CounterService(
      store: store, boards: boards,
      configuration: CounterServiceConfiguration(
        adminToken: Self.token, readLimit: .unlimited, writeLimit: .unlimited, log: { _ in }))
    let inner = service.handler
    let requests = self.requests
    server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0)) {
      request in
      requests.add()
      return await inner(request)
    }
    port = try server.start()
  }

  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
  var requestCount: Int { requests.value }

  func client(voter: String) -> VoteFirstHTTPClient {
    VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(baseURL: url, project: "voter-app"),
      voterID: voter)
  }

  var admin: VoteFirstHTTPClient {
    VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: url, project: "voter-app", adminToken: Self.token))
  }

  /// The countapi value of `key` in the project's namespace.
  func countapiValue(_ key: String) async throws -> String {
    let (data, _) = try await URLSession.shared.data(
      from: url.appendingPathComponent("get/voter-app/\(key)"))
    return String(decoding: data, as: UTF8.self)
  }

  func stop() async {
    await server.shutdown(gracePeriod: .seconds(1))
    await boards.close()
    await store.close()
    try? FileManager.default.removeItem(at: directory)
  }
}

private final class RequestCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() {
    lock.lock()
    count += 1
    lock.unlock()
  }
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

@Suite struct VoteFirstVoterTests {
  private static func withServer(_ body: (BoardServer) async throws -> Void) async throws {
    let server = try BoardServer()
    do {
      try await body(server)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  /// Features "1" (3 imported votes), "2" (none), "3" in an archived stage, "4" finished.
  private static func seed(_ admin: VoteFirstHTTPClient) async throws -> (
    archived: Stage, done: Stage
  ) {
    let archived = try await admin.createStage(Stage(name: "Old", isArchived: true))
    let done = try await admin.createStage(Stage(name: "Done", isFinished: true))
    _ = try await admin.upsertFeatures([
      FeatureUpsert(content: FeatureContent(ref: "1", title: "One"), importedVotes: 3),
      FeatureUpsert(content: FeatureContent(ref: "2", title: "Two")),
      FeatureUpsert(
        content: FeatureContent(ref: "3", title: "Three", stage: archived.id), importedVotes: 7),
      FeatureUpsert(
        content: FeatureContent(ref: "4", title: "Four", stage: done.id), importedVotes: 9),
    ])
    return (archived, done)
  }

  /// A VoteFirst server that answers a negative count (ours never does; the count comes
  /// through a client that takes 100 from every count) made the voter answer it as it was,
  /// where `CountingAPIVoter` and `DurableVoter` show 0.
  @Test func negativeCountReadsAsZero() async throws {
    try await Self.withServer { server in
      _ = try await Self.seed(server.admin)
      let voter = VoteFirstVoter(
        client: OffsetVotes(inner: server.client(voter: "ann"), offset: -100))
      let one = RoadmapFeature(id: "1", title: "One")
      #expect(try await voter.counts(for: [one, RoadmapFeature(id: "2")]) == ["1": 0, "2": 0])
      #expect(try await voter.count(for: one) == 0)
      #expect(await voter.fetch(for: one) == 0)
      #expect(try await voter.castVote(for: one) == 0)
      #expect(try await voter.withdrawVote(for: one) == 0)
      #expect(await voter.vote(for: one) == 0)
      // Where the server's count is past 0 again, it is the count.
      let skewed = VoteFirstVoter(
        client: OffsetVotes(inner: server.client(voter: "bob"), offset: -3))
      #expect(try await skewed.castVote(for: one) == 2)
    }
  }

  @Test func countsAndVotesFollowTheRef() async throws {
    try await Self.withServer { server in
      _ = try await Self.seed(server.admin)
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      let one = RoadmapFeature(id: "1", title: "One")
      #expect(try await voter.count(for: one) == 3)
      #expect(try await voter.castVote(for: one) == 4)
      #expect(try await voter.castVote(for: one) == 4)
      #expect(await voter.vote(for: one) == 4)
      #expect(await voter.fetch(for: one) == 4)

      // Another voter, and the countapi route of old app versions: one count.
      let bob = VoteFirstVoter(client: server.client(voter: "bob"))
      #expect(await bob.vote(for: one) == 5)
      #expect(try await server.countapiValue("feature1") == #"{"value":5}"#)
      #expect(try await voter.withdrawVote(for: one) == 4)
      #expect(await voter.unvote(for: one) == 4)

      let board = [
        one, RoadmapFeature(id: "2"), RoadmapFeature(id: "3"),
        RoadmapFeature(id: "4", isFinished: true), RoadmapFeature(id: "not-migrated"),
      ]
      #expect(
        try await voter.counts(for: board)
          == ["1": 4, "2": 0, "3": 7, "4": 0, "not-migrated": 0])
      #expect(await voter.fetch(for: board) == ["1": 4, "2": 0, "3": 7, "4": 0, "not-migrated": 0])
    }
  }

  @Test func aFinishedFeatureMakesNoCall() async throws {
    try await Self.withServer { server in
      _ = try await Self.seed(server.admin)
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      let before = server.requestCount
      #expect(try await voter.count(for: RoadmapFeature(id: "4", isFinished: true)) == 0)
      #expect(await voter.fetch(for: RoadmapFeature(id: "1", isFinished: true)) == 0)
      #expect(server.requestCount == before)
    }
  }

  /// A vote for a finished feature is refused as every voter refuses it, without a call (it
  /// was cast, and a later count said 0).
  @Test func aVoteForAFinishedFeatureIsRefusedLikeEveryVotersIs() async throws {
    try await Self.withServer { server in
      _ = try await Self.seed(server.admin)
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      let before = server.requestCount
      for up in [true, false] {
        do throws(VotingError) {
          let one = RoadmapFeature(id: "1", isFinished: true)
          _ = up ? try await voter.castVote(for: one) : try await voter.withdrawVote(for: one)
          Issue.record("a vote for a finished feature was sent")
        } catch {
          #expect(error.kind == .invalidRequest)
          #expect(error.description.contains("'1' is finished: finished features take no votes"))
        }
      }
      #expect(server.requestCount == before)
      #expect(try await voter.count(for: RoadmapFeature(id: "1")) == 3)
    }
  }

  /// The owner gives a feature's ref to another (re-keys it): a voter that remembered the
  /// feature's id must not count or vote on it under the old ref (the vote landed on the
  /// re-keyed feature, and the count was its count).
  @Test func aRefTheOwnerChangedIsNotVotedOnUnderTheOldRef() async throws {
    try await Self.withServer { server in
      let made = try await server.admin.upsertFeatures([
        FeatureUpsert(content: FeatureContent(ref: "A", title: "Feature A"), importedVotes: 2),
        FeatureUpsert(content: FeatureContent(ref: "B", title: "Feature B")),
      ])
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      let a = RoadmapFeature(id: "A")
      #expect(try await voter.count(for: a) == 2)
      let id = try #require(made.features.first { $0.ref == "A" }?.id)
      _ = try await server.admin.updateFeature(
        id: id, FeatureContent(ref: "C", title: "Feature A"))

      #expect(try await voter.count(for: a) == 0)
      do throws(VotingError) {
        _ = try await voter.castVote(for: a)
        Issue.record("a vote for a ref no feature has was accepted")
      } catch {
        #expect(error.kind == .refused && error.status == 404)
      }
      // Its counter is its new ref's (the old one keeps the 2): no vote reached it.
      #expect(try await server.admin.feature(id: id).votes == 0)
      // Under its new ref it is counted and voted on.
      #expect(try await voter.castVote(for: RoadmapFeature(id: "C")) == 1)
    }
  }

  /// A board's rows load at once, one `fetch` each: they share one listing and take their
  /// counts from it (each listed the whole board, then read its feature again: 250 requests
  /// for 50 rows of a 250-feature board, and a default rate limit refused most of them).
  @Test func rowsLoadingAtOnceShareOneListing() async throws {
    try await Self.withServer { server in
      _ = try await server.admin.upsertFeatures(
        (1...250).map { (n: Int) in
          FeatureUpsert(content: FeatureContent(ref: "\(n)", title: "F\(n)"), importedVotes: n)
        })
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      let before = server.requestCount
      let counts = await withTaskGroup(of: (String, Int).self) { group in
        for ref in (1...50).map(String.init) {
          group.addTask { (ref, await voter.fetch(for: RoadmapFeature(id: ref))) }
        }
        var counts: [String: Int] = [:]
        for await (ref, count) in group { counts[ref] = count }
        return counts
      }
      #expect(counts == Dictionary(uniqueKeysWithValues: (1...50).map { ("\($0)", $0) }))
      // Three pages of 100 and the board (for its archived stages): nothing per row.
      #expect(server.requestCount - before == 4)
      // Remembered afterwards: a row read again is one request, checked against its ref.
      #expect(await voter.fetch(for: RoadmapFeature(id: "7")) == 7)
      #expect(server.requestCount - before == 5)
    }
  }

  /// `allFeatures()` reads in an order votes do not change (newest first), so a listing with
  /// votes cast meanwhile is complete; in vote order a feature could move to a page already
  /// read.
  @Test func allFeaturesListsNewestFirstByDefault() async throws {
    try await Self.withServer { server in
      let made = try await server.admin.upsertFeatures(
        [1, 9, 4].map { (n: Int) in
          FeatureUpsert(content: FeatureContent(ref: "r\(n)", title: "F\(n)"), importedVotes: n)
        })
      let listed = try await server.client(voter: "ann").allFeatures()
      #expect(listed.map(\.id) == made.features.map(\.id).reversed())
    }
  }

  @Test func refusalsKeepTheirReason() async throws {
    try await Self.withServer { server in
      _ = try await Self.seed(server.admin)
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      do throws(VotingError) {
        _ = try await voter.castVote(for: RoadmapFeature(id: "4"))
        Issue.record("a vote for a finished feature was accepted")
      } catch {
        #expect(error.kind == .refused)
        #expect(error.status == 403)
        #expect(error.reason?.contains(VoteFirstContract.ErrorCode.votingDisabledStage) == true)
      }
      do throws(VotingError) {
        _ = try await voter.castVote(for: RoadmapFeature(id: "not-migrated"))
        Issue.record("a vote for a feature VoteFirst does not have was accepted")
      } catch {
        #expect(error.kind == .refused && error.status == 404)
      }
      #expect(await voter.vote(for: RoadmapFeature(id: "not-migrated")) == nil)
      #expect(try await voter.count(for: RoadmapFeature(id: "not-migrated")) == 0)
    }
  }

  @Test func aFeatureRecreatedUnderItsRefIsFoundAgain() async throws {
    try await Self.withServer { server in
      _ = try await Self.seed(server.admin)
      let voter = VoteFirstVoter(client: server.client(voter: "ann"))
      let two = RoadmapFeature(id: "2")
      #expect(try await voter.castVote(for: two) == 1)
      let old = try await server.admin.exportProject().features.first { $0.feature.ref == "2" }
      try await server.admin.deleteFeature(id: try #require(old).feature.id)
      let again = try await server.admin.upsertFeature(
        ref: "2", FeatureUpsert(content: FeatureContent(title: "Two again")))
      #expect(again.id != old?.feature.id)
      // Same ref, same counter: the vote is still there, under the new id.
      #expect(try await voter.count(for: two) == 1)
      #expect(try await voter.withdrawVote(for: two) == 0)
    }
  }

  /// Votes cast while the voter reads the board's pages move features between them in vote
  /// order: a listing in that order missed features (they counted 0, a vote for one was
  /// refused as unknown). The listing's order must not depend on votes.
  @Test func votesCastDuringTheListingMissNoFeature() async throws {
    try await Self.withServer { server in
      let refs = (1...150).map(String.init)
      _ = try await server.admin.upsertFeatures(
        refs.map {
          FeatureUpsert(content: FeatureContent(ref: $0, title: "F\($0)"), importedVotes: 5)
        })
      let others = server.client(voter: "zed")
      // After the first page, every feature not on it gets one more vote (6 against 5), as
      // other users voting at that moment would do.
      let client = FirstPageHook(server.client(voter: "ann")) { page in
        let seen = Set(page.features.map(\.id))
        let all = try? await server.admin.exportProject().features.map(\.feature.id)
        for id in all ?? [] where !seen.contains(id) { _ = try? await others.upvote(featureID: id) }
      }
      let voter = VoteFirstVoter(client: client)
      let features = refs.map { RoadmapFeature(id: $0) }
      let counts = try await voter.counts(for: features)
      #expect(client.fired)
      #expect(counts.count == 150)
      let missed = counts.filter { $0.value == 0 }.keys.sorted()
      #expect(missed.isEmpty)
      let total = counts.values.reduce(0, +)
      #expect(total == 150 * 5 + 50)
    }
  }

  /// A port bound and never listening (`ClosedPort`): a stopped server's port could be taken by
  /// another test's server meanwhile, which answered (a CI run saw `refused`).
  @Test func anUnreachableServerIsOffline() async throws {
    let closed = try ClosedPort()
    let client = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(baseURL: closed.url, project: "voter-app"),
      voterID: "ann")
    let voter = VoteFirstVoter(client: client)
    do throws(VotingError) {
      _ = try await voter.count(for: RoadmapFeature(id: "1"))
      Issue.record("a stopped server answered")
    } catch {
      #expect(error.kind == .offline)
    }
    #expect(await voter.fetch(for: RoadmapFeature(id: "1")) == 0)
    #expect(await voter.vote(for: RoadmapFeature(id: "1")) == nil)
    withExtendedLifetime(closed) {}
  }
}

/// A client whose every count is `offset` more than the server's (negative for a server that
/// lets counts go below zero).
private struct OffsetVotes: VoteFirstClient {
  let inner: VoteFirstHTTPClient
  let offset: Int

  func features(_ query: FeatureQuery) async throws(VoteFirstError) -> FeaturePage {
    var page = try await inner.features(query)
    for index in page.features.indices { page.features[index].votes += offset }
    return page
  }
  func board(slug: String?) async throws(VoteFirstError) -> BoardSnapshot {
    try await inner.board(slug: slug)
  }
  func feature(id: Int) async throws(VoteFirstError) -> Feature {
    var feature = try await inner.feature(id: id)
    feature.votes += offset
    return feature
  }
  func upvote(featureID: Int) async throws(VoteFirstError) -> VoteState {
    var state = try await inner.upvote(featureID: featureID)
    state.votes += offset
    return state
  }
  func unvote(featureID: Int) async throws(VoteFirstError) -> VoteState {
    var state = try await inner.unvote(featureID: featureID)
    state.votes += offset
    return state
  }
  func releases() async throws(VoteFirstError) -> [Release] { try await inner.releases() }
  func release(id: Int) async throws(VoteFirstError) -> Release { try await inner.release(id: id) }
  func submit(_ suggestion: SuggestionDraft) async throws(VoteFirstError) -> SuggestionReceipt {
    try await inner.submit(suggestion)
  }
  func forget() async { await inner.forget() }
}

/// A client that runs `hook` once, after it has read the first page of a feature listing.
private final class FirstPageHook: VoteFirstClient, @unchecked Sendable {
  private let inner: VoteFirstHTTPClient
  private let hook: @Sendable (FeaturePage) async -> Void
  private let lock = NSLock()
  private var done = false

  init(_ inner: VoteFirstHTTPClient, hook: @escaping @Sendable (FeaturePage) async -> Void) {
    self.inner = inner
    self.hook = hook
  }

  var fired: Bool { lock.withLock { done } }

  func features(_ query: FeatureQuery) async throws(VoteFirstError) -> FeaturePage {
    let page = try await inner.features(query)
    let first = lock.withLock {
      let first = query.cursor == nil && page.next != nil && !done
      if first { done = true }
      return first
    }
    if first { await hook(page) }
    return page
  }

  func board(slug: String?) async throws(VoteFirstError) -> BoardSnapshot {
    try await inner.board(slug: slug)
  }
  func feature(id: Int) async throws(VoteFirstError) -> Feature { try await inner.feature(id: id) }
  func upvote(featureID: Int) async throws(VoteFirstError) -> VoteState {
    try await inner.upvote(featureID: featureID)
  }
  func unvote(featureID: Int) async throws(VoteFirstError) -> VoteState {
    try await inner.unvote(featureID: featureID)
  }
  func releases() async throws(VoteFirstError) -> [Release] { try await inner.releases() }
  func release(id: Int) async throws(VoteFirstError) -> Release { try await inner.release(id: id) }
  func submit(_ suggestion: SuggestionDraft) async throws(VoteFirstError) -> SuggestionReceipt {
    try await inner.submit(suggestion)
  }
  func forget() async { await inner.forget() }
}
