import Foundation
import RoadmapFormat

/// Runs per-feature work with at most a fixed number of calls in flight.
enum BoundedConcurrency {
  /// Runs `body` for every feature, at most `limit` at once; finished features get 0 without a
  /// call. The result is keyed by feature id.
  static func map(
    _ features: [RoadmapFeature], limit: Int,
    _ body: @escaping @Sendable (RoadmapFeature) async -> Result<Int, VotingError>
  ) async -> [String: Result<Int, VotingError>] {
    var results: [String: Result<Int, VotingError>] = [:]
    let pending = features.filter { feature in
      if feature.isFinished == true {
        results[feature.id] = .success(0)
        return false
      }
      return true
    }
    await withTaskGroup(of: (String, Result<Int, VotingError>).self) { group in
      var next = 0
      for _ in 0..<min(max(limit, 1), pending.count) {
        let feature = pending[next]
        next += 1
        group.addTask { (feature.id, await body(feature)) }
      }
      while let (id, result) = await group.next() {
        results[id] = result
        if next < pending.count {
          let feature = pending[next]
          next += 1
          group.addTask { (feature.id, await body(feature)) }
        }
      }
    }
    return results
  }

  /// The counts of `results`, or the first failure in the order of `order`.
  static func collect(
    _ results: [String: Result<Int, VotingError>], order: [RoadmapFeature]
  ) throws(VotingError) -> [String: Int] {
    var counts: [String: Int] = [:]
    for feature in order {
      switch results[feature.id] {
      case .success(let count): counts[feature.id] = count
      case .failure(let error): throw error
      case nil: counts[feature.id] = 0
      }
    }
    return counts
  }
}

extension Array where Element == RoadmapFeature {
  /// The features with the first of each id only, in order.
  var distinctByID: [RoadmapFeature] {
    var seen: Set<String> = []
    return filter { seen.insert($0.id).inserted }
  }
}
