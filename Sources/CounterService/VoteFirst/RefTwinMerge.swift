import VoteFirstAPI
import VoteStore

/// Merges the features whose refs are one ref in different Unicode forms (``RefTwins``),
/// which a store made before such refs were refused may hold: in each group the feature with
/// the lowest id stays (its ref, content and counter); every other one's votes move into its
/// counter (anonymous votes added, a voter who voted on both counted once) and the other is
/// deleted as `DELETE /features/{id}` deletes it, except that the one that stays takes its
/// place in the release it shipped in when it is in none itself.
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
        var keptContent = try BoardJSON.decode(FeatureContent.self, kept.doc)
        for other in removed {
          votes = try tables.mergeVotes(
            group.project, from: other.counterKey, into: kept.counterKey, now: now)
          // The feature shipped in the release a twin shipped in: the one that stays takes
          // the twin's place in it, unless it is in a release of its own (a feature is in
          // one release at most, and its `release` and the release's list say the same).
          let otherRelease = try BoardJSON.decode(FeatureContent.self, other.doc).release
          var joined: Int?
          if keptContent.release == nil, let otherRelease {
            keptContent.release = otherRelease
            joined = otherRelease
            var row = kept
            row.doc = try BoardJSON.encode(keptContent)
            try tables.put(row)
          }
          _ = try tables.deleteFeature(group.project, id: other.id)
          for var row in try tables.items(.release, group.project) {
            var release = try BoardJSON.decode(Release.self, row.doc)
            guard let at = release.features.firstIndex(of: Int(other.id)) else { continue }
            if release.id == joined, !release.features.contains(Int(kept.id)) {
              release.features[at] = Int(kept.id)
            }
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
