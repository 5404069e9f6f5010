import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// A vote on a feature without a ref reads the feature's counter key (`U+001F vf ID`), then
/// applies the vote to it. An admin who gives the feature a ref in between (on this instance
/// or another on the same PostgreSQL database) merges that counter into the ref's and
/// deletes it. The vote then made the ref-less counter again and was answered `voted: true`
/// with a count no feature showed: acknowledged and lost (about one vote per voting client
/// at each such edit, with three `serve` instances on one database). An unvote found nothing
/// to take and answered `voted: false` while the vote stayed in the ref's counter.
///
/// The store here runs the admin's edit between the key's read and the vote, as the race
/// does.
@Suite struct RefMergeRaceTests {
  static let project = "demo-app"

  @Test(arguments: [true, false])
  func aVoteAppliedAfterTheFeatureGotARefIsInItsCount(memoryCache: Bool) async throws {
    try await RaceHarness.with(memoryCache: memoryCache) { harness in
      let feature = await harness.refLessFeature()
      harness.store.beforeRefLessWrite {
        await harness.giveRef(feature, "given")
      }
      let vote = await harness.call(
        .post, "/api/v1/\(Self.project)/features/\(feature)/vote", voter: "voter-1")
      #expect(vote.status == 200, "\(vote.body)")
      #expect(vote.object["voted"] as? Bool == true, "\(vote.body)")
      #expect(vote.object["votes"] as? Int == 1, "\(vote.body)")
      #expect(harness.store.hookRan)

      let read = await harness.call(
        .get, "/api/v1/\(Self.project)/features/\(feature)", voter: "voter-1")
      #expect(read.object["ref"] as? String == "given", "\(read.body)")
      #expect(read.object["votes"] as? Int == 1, "the acknowledged vote is lost: \(read.body)")
      #expect(read.object["voted"] as? Bool == true, "\(read.body)")
      let stray = try await harness.store.record(
        namespace: Self.project, key: CounterNames.refLessKeyPrefix + "\(feature)")
      #expect(stray == nil, "the vote is in a counter no feature shows")
    }
  }

  @Test(arguments: [true, false])
  func anUnvoteAppliedAfterTheFeatureGotARefTakesTheVote(memoryCache: Bool) async throws {
    try await RaceHarness.with(memoryCache: memoryCache) { harness in
      let feature = await harness.refLessFeature()
      let vote = await harness.call(
        .post, "/api/v1/\(Self.project)/features/\(feature)/vote", voter: "voter-1")
      #expect(vote.object["votes"] as? Int == 1, "\(vote.body)")
      harness.store.beforeRefLessWrite {
        await harness.giveRef(feature, "given")
      }
      let unvote = await harness.call(
        .delete, "/api/v1/\(Self.project)/features/\(feature)/vote", voter: "voter-1")
      #expect(unvote.status == 200, "\(unvote.body)")
      #expect(unvote.object["voted"] as? Bool == false, "\(unvote.body)")
      #expect(unvote.object["votes"] as? Int == 0, "\(unvote.body)")
      #expect(harness.store.hookRan)

      let read = await harness.call(
        .get, "/api/v1/\(Self.project)/features/\(feature)", voter: "voter-1")
      #expect(read.object["votes"] as? Int == 0, "the unvote took nothing: \(read.body)")
      #expect(read.object["voted"] as? Bool == false, "\(read.body)")
    }
  }
}

/// A vote store that runs a hook once, before the first write to a ref-less feature's
/// counter, then hands every call to the SQLite store beneath it.
private final class HookedStore: ForwardingVoteStore {
  let inner: SQLiteVoteStore
  private let hook = Locked<(@Sendable () async -> Void)?>(nil)
  private let ran = Locked(false)

  init(_ inner: SQLiteVoteStore) { self.inner = inner }

  /// Runs `body` before the next write to a ref-less counter.
  func beforeRefLessWrite(_ body: @escaping @Sendable () async -> Void) {
    hook.withLock { $0 = body }
  }

  /// Whether the hook ran.
  var hookRan: Bool { ran.withLock { $0 } }

  func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult {
    if mutation.key.hasPrefix(CounterNames.refLessKeyPrefix) {
      let body = hook.withLock { hook in
        defer { hook = nil }
        return hook
      }
      if let body {
        await body()
        ran.withLock { $0 = true }
      }
    }
    return try await inner.apply(mutation)
  }
}

/// The board API over ``HookedStore`` and a board store on the same SQLite file.
private struct RaceHarness {
  let directory: URL
  let store: HookedStore
  let boards: SQLiteBoardStore
  let service: CounterService

  init(memoryCache: Bool) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ref-merge-race-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let inner = try SQLiteVoteStore(
      directory: directory, options: .init(memoryCache: memoryCache))
    store = HookedStore(inner)
    boards = try SQLiteBoardStore(sharing: inner)
    service = CounterService(
      store: store, boards: boards, configuration: ServiceHarness.configuration())
  }

  static func with(memoryCache: Bool, _ body: (RaceHarness) async throws -> Void) async throws {
    let harness = try RaceHarness(memoryCache: memoryCache)
    do {
      try await body(harness)
    } catch {
      await harness.tearDown()
      throw error
    }
    await harness.tearDown()
  }

  func tearDown() async {
    await boards.close()
    await store.close()
    try? FileManager.default.removeItem(at: directory)
  }

  func call(
    _ method: HTTPMethod, _ target: String, json: String? = nil, admin: Bool = false,
    voter: String? = nil
  ) async -> Answer {
    await BoardHarness.call(service, method, target, json: json, admin: admin, voter: voter)
  }

  /// A feature made with a ref, which is then taken away: it counts in its ref-less key.
  func refLessFeature() async -> Int {
    let base = "/api/v1/\(RefMergeRaceTests.project)"
    let made = await call(.put, base + "/features/ref/first", json: #"{"title":"x"}"#, admin: true)
    let id = made.object["id"] as? Int ?? 0
    let bare = await call(
      .put, base + "/features/\(id)", json: #"{"title":"x","ref":null}"#, admin: true)
    #expect(bare.status == 200 && bare.object["ref"] == nil, "\(bare.body)")
    return id
  }

  /// The admin's edit that gives feature `id` the ref `ref` (and merges its counter).
  func giveRef(_ id: Int, _ ref: String) async {
    let edit = await call(
      .put, "/api/v1/\(RefMergeRaceTests.project)/features/\(id)",
      json: "{\"title\":\"x\",\"ref\":\"\(ref)\"}", admin: true)
    #expect(edit.status == 200, "\(edit.body)")
  }
}
