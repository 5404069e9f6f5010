import FeatureVoting
import RoadmapFormat

/// Reads the vote counts of a roadmap's features from a counting API, feature by feature, so
/// that every count that cannot be read is named with its reason instead of guessed.
///
/// Finished features are asked for too (a voter answers 0 for them without asking, but they
/// gathered votes before they were finished). A key the counting API does not know counts 0
/// (the voter's own rule).
public struct CountReader: Sendable {
  /// What was read.
  public struct Result: Sendable {
    /// The counts, by Roadmap id.
    public var counts: [String: Int]
    /// The features whose count could not be read, in roadmap order, with the reason.
    public var failures: [(id: String, error: VotingError)]
  }

  /// One feature's count or the reason it could not be read.
  private struct Outcome: Sendable {
    var id: String
    var count: Int?
    var error: VotingError?
  }

  private static func outcome(of feature: RoadmapFeature, from voter: any FeatureVoter) async
    -> Outcome
  {
    do {
      return Outcome(id: feature.id, count: try await voter.count(for: feature))
    } catch {
      return Outcome(id: feature.id, error: error)
    }
  }

  /// The voter that reads.
  public var voter: any FeatureVoter
  /// Whether to read the whole board in one request first (where the server has a batch
  /// route), falling back to one request per feature when that fails.
  public var batch: Bool
  /// Requests in flight at once when reading feature by feature.
  public var concurrency: Int

  /// Creates a reader.
  public init(voter: any FeatureVoter, batch: Bool, concurrency: Int = 16) {
    self.voter = voter
    self.batch = batch
    self.concurrency = max(1, concurrency)
  }

  /// The counts of `features`; `progress` is called with the number read so far.
  public func read(
    _ features: [RoadmapFeature], progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async -> Result {
    var seen = Set<String>()
    let asked = features.filter { seen.insert($0.id).inserted }.map { feature in
      var unfinished = feature
      unfinished.isFinished = false
      return unfinished
    }
    if batch, let counts = try? await voter.counts(for: asked) {
      progress(asked.count)
      return Result(counts: counts, failures: [])
    }
    var counts: [String: Int] = [:]
    var failures: [String: VotingError] = [:]
    let voter = self.voter
    await withTaskGroup(of: Outcome.self) { group in
      var next = 0
      while next < min(concurrency, asked.count) {
        let feature = asked[next]
        group.addTask { await Self.outcome(of: feature, from: voter) }
        next += 1
      }
      var done = 0
      for await outcome in group {
        if let count = outcome.count { counts[outcome.id] = count }
        if let error = outcome.error { failures[outcome.id] = error }
        done += 1
        progress(done)
        if next < asked.count {
          let feature = asked[next]
          group.addTask { await Self.outcome(of: feature, from: voter) }
          next += 1
        }
      }
    }
    let ordered = asked.compactMap { feature in failures[feature.id].map { (feature.id, $0) } }
    return Result(counts: counts, failures: ordered)
  }
}
