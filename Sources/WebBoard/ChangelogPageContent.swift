import VoteFirstAPI

/// What the changelog shows: every release, newest first, with the titles of their features.
public struct ChangelogPageContent: Sendable, Hashable {
  /// The roadmap board, with the project's settings.
  public var snapshot: BoardSnapshot
  /// The releases, newest first.
  public var releases: [Release]
  /// The features the releases name that readers can see, by id.
  public var features: [Int: Feature]

  /// Creates the content of a changelog page.
  public init(snapshot: BoardSnapshot, releases: [Release], features: [Int: Feature] = [:]) {
    self.snapshot = snapshot
    self.releases = releases
    self.features = features
  }
}
