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

  /// ``counts(for:)``, each feature's count. When that batch is refused or answered oddly
  /// (``VotingError/Kind/refused``, ``VotingError/Kind/badAnswer``: one feature the voter does
  /// not take, and it cannot say which), one ``count(for:)`` per distinct unfinished feature,
  /// at most six at a time, so only the bad ones fail. Any other failure of the batch (offline,
  /// timed out, 429, 5xx) is every unfinished feature's, without further calls.
  public func countResults(for features: [RoadmapFeature]) async
    -> [String: Result<Int, VotingError>]
  {
    let distinct = features.distinctByID
    do throws(VotingError) {
      let counts = try await self.counts(for: distinct)
      return distinct.reduce(into: [:]) { $0[$1.id] = .success(counts[$1.id] ?? 0) }
    } catch  where distinct.count > 1 && (error.kind == .refused || error.kind == .badAnswer) {
      return await BoundedConcurrency.map(distinct, limit: 6) { feature in
        do throws(VotingError) {
          return .success(try await self.count(for: feature))
        } catch {
          return .failure(error)
        }
      }
    } catch {
      return distinct.reduce(into: [:]) {
        $0[$1.id] = $1.isFinished == true ? .success(0) : .failure(error)
      }
    }
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
