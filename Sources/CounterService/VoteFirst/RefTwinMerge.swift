import VoteFirstAPI
import VoteStore

/// Merges the features whose refs are one ref in different Unicode forms (``RefTwins``),
/// which a store made before such refs were refused may hold: in each group the feature with
/// the lowest id stays (its ref, content and counter); every other one's votes move into its
/// counter (anonymous votes added, a voter who voted on both counted once) and the other is
/// deleted as `DELETE /features/{id}` deletes it (it leaves the releases that listed it).
public enum RefTwinMerge {
  /// One group merged.
  public struct Merged: Sendable, Equatable {
    /// The project.
    public var project: String
    /// The feature that stays.
    public var kept: BoardFeatureRow
    /// The features merged into it and deleted.
    public var removed: [BoardFeatureRow]
    /// The kept feature's votes after the merge.
    public var votes: Int64
  }

  /// Merges every group of the store in one transaction; returns what was merged (nothing
  /// for a store without such groups).
  public static func mergeAll(_ boards: any BoardStore, now: Int64) async throws -> [Merged] {
    try await boards.write { tables in
      var merged: [Merged] = []
      for group in try tables.refTwins() {
        try tables.lockProject(group.project)
        let kept = group.features[0]
        let removed = Array(group.features.dropFirst())
        var votes = try tables.votes(group.project, key: kept.counterKey)
        for other in removed {
          votes = try tables.mergeVotes(
            group.project, from: other.counterKey, into: kept.counterKey, now: now)
          _ = try tables.deleteFeature(group.project, id: other.id)
          for var row in try tables.items(.release, group.project) {
            var release = try BoardJSON.decode(Release.self, row.doc)
            guard release.features.contains(Int(other.id)) else { continue }
            release.features.removeAll { $0 == Int(other.id) }
            row.doc = try BoardJSON.encode(release)
            try tables.put(.release, row)
          }
        }
        merged.append(Merged(project: group.project, kept: kept, removed: removed, votes: votes))
      }
      return merged
    }
  }
}
