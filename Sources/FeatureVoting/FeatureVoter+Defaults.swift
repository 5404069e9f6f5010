import Foundation
import RoadmapFormat

extension FeatureVoter {
  /// One ``fetch(for:)`` per distinct unfinished feature, at most four at a time; finished
  /// features are 0.
  public func fetch(for features: [RoadmapFeature]) async -> [String: Int] {
    let results = await BoundedConcurrency.map(features.distinctByID, limit: 4) { feature in
      Result<Int, VotingError>.success(await self.fetch(for: feature))
    }
    return results.mapValues { (try? $0.get()) ?? 0 }
  }

  /// ``fetch(for:)``, which cannot tell a failure from a count of 0.
  public func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    await fetch(for: feature)
  }

  /// One ``count(for:)`` per distinct unfinished feature, at most four at a time; the first
  /// failure (in board order) is thrown.
  public func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    let distinct = features.distinctByID
    let results = await BoundedConcurrency.map(distinct, limit: 4) { feature in
      do throws(VotingError) {
        return .success(try await self.count(for: feature))
      } catch {
        return .failure(error)
      }
    }
    return try BoundedConcurrency.collect(results, order: distinct)
  }

  /// ``vote(for:)``; a nil becomes ``VotingError/Kind/unexplained``.
  public func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    guard let count = await vote(for: feature) else {
      throw .unexplained("the voter did not accept the vote for '\(feature.id)'")
    }
    return count
  }

  /// ``unvote(for:)``; a nil becomes ``VotingError/Kind/unexplained``.
  public func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    guard let count = await unvote(for: feature) else {
      throw .unexplained("the voter did not accept the unvote for '\(feature.id)'")
    }
    return count
  }
}
