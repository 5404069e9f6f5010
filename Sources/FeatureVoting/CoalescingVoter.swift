import Foundation
import RoadmapFormat

/// A ``FeatureVoter`` that gathers single reads made at about the same time into one batch read
/// of its base voter.
///
/// The Roadmap package asks `fetch(for:)` once per row, every row at once, as its list
/// appears. Over ``CountingAPIVoter`` with ``CountingDialect/roadmapBridge`` that is one request
/// per feature; wrapped in a `CoalescingVoter`, the reads that arrive within ``window`` go out as
/// one `GET /counts/NS?keys=…`. Votes and unvotes pass straight through.
///
/// Each read gets its own answer, from the base voter's ``FeatureVoter/countResults(for:)``:
/// a feature the batch cannot take fails alone (and `fetch` shows 0 for it alone), while the
/// others get their counts from the batch. ``CountingAPIVoter`` reads on their own only the
/// features whose keys its batch route cannot take (id `dark mode`, or one over 57 characters)
/// and, when the server refuses a batch or answers it oddly (``VotingError/Kind/refused``,
/// ``VotingError/Kind/badAnswer``), that batch's features; a base without its own
/// `countResults` reads each feature of the window on its own only when its `counts(for:)` is
/// refused or answered oddly. A batch that fails for want of a server (offline, timed out,
/// 429, 5xx) fails every read of the window at once.
///
///     let voter = CoalescingVoter(base: DurableVoter(base: countingVoter))
public struct CoalescingVoter<Base: FeatureVoter>: FeatureVoter {
  /// The voter that reads and writes.
  public let base: Base
  /// How long the first read of a batch waits for others to join it, in seconds: between 0
  /// and ``longestWindow``.
  public let window: TimeInterval
  private let coalescer: ReadCoalescer

  /// The longest ``window``, in seconds (1): reads wait no longer than that for company.
  public static var longestWindow: TimeInterval { 1 }

  /// Creates a voter gathering the reads of `window` seconds (20 ms by default) into one.
  ///
  /// A `window` that is NaN or negative is 0; one longer than ``longestWindow`` (`.infinity`
  /// included) is ``longestWindow``.
  public init(base: Base, window: TimeInterval = 0.02) {
    self.base = base
    let window = window > 0 ? min(window, Self.longestWindow) : 0
    self.window = window
    // Each feature's own result: the base reads on their own only the features its batch
    // could not take (CountingAPIVoter: the keys its batch route refuses), never the whole
    // window again.
    self.coalescer = ReadCoalescer(window: window) { features in
      await base.countResults(for: features)
    }
  }

  /// The count, read together with the other reads of the same moment; 0 on failure.
  public func fetch(for feature: RoadmapFeature) async -> Int {
    (try? await count(for: feature)) ?? 0
  }

  /// Passes the vote to the base voter.
  public func vote(for feature: RoadmapFeature) async -> Int? {
    await base.vote(for: feature)
  }

  /// Passes the unvote to the base voter.
  public func unvote(for feature: RoadmapFeature) async -> Int? {
    await base.unvote(for: feature)
  }

  /// The count, read together with the other reads of the same moment, or why it failed.
  public func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    if feature.isFinished == true { return 0 }
    return try await coalescer.count(for: feature).get()
  }

  /// The base voter's batch read.
  public func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    try await base.counts(for: features)
  }

  /// The base voter's batch read, each feature's count or its own failure.
  public func countResults(for features: [RoadmapFeature]) async
    -> [String: Result<Int, VotingError>]
  {
    await base.countResults(for: features)
  }

  /// The base voter's batch read, 0 where it failed.
  public func fetch(for features: [RoadmapFeature]) async -> [String: Int] {
    await base.fetch(for: features)
  }

  /// Passes the vote to the base voter.
  public func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await base.castVote(for: feature)
  }

  /// Passes the unvote to the base voter.
  public func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await base.withdrawVote(for: feature)
  }
}

/// Collects reads for one window, then makes one batch read and answers each of them.
actor ReadCoalescer {
  // A Result rather than a typed-throws function type: stored function types with typed
  // throws need runtime support that iOS 15 and macOS 12 lack.
  /// Each feature's count or its own failure, by feature id.
  typealias BatchRead =
    @Sendable ([RoadmapFeature]) async -> [String: Result<Int, VotingError>]

  private let window: TimeInterval
  private let read: BatchRead
  private var features: [RoadmapFeature] = []
  private var waiting: [String: [CheckedContinuation<Result<Int, VotingError>, Never>]] = [:]
  private var scheduled = false

  init(window: TimeInterval, read: @escaping BatchRead) {
    self.window = window
    self.read = read
  }

  /// The count of `feature` from the next batch.
  func count(for feature: RoadmapFeature) async -> Result<Int, VotingError> {
    await withCheckedContinuation { continuation in
      if waiting[feature.id] == nil { features.append(feature) }
      waiting[feature.id, default: []].append(continuation)
      if !scheduled {
        scheduled = true
        Task { await self.fire() }
      }
    }
  }

  private func fire() async {
    try? await Task.sleep(nanoseconds: SleepTime.nanoseconds(window))
    let batch = features
    let answers = waiting
    features = []
    waiting = [:]
    scheduled = false
    let results = await read(batch)
    for (id, continuations) in answers {
      let answer = results[id] ?? .success(0)
      for continuation in continuations { continuation.resume(returning: answer) }
    }
  }
}
