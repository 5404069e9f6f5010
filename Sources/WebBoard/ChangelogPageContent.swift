import VoteFirstAPI

/// What a page of the changelog shows: its releases, newest first, with the titles of their
/// features, and links to the newer and older pages.
public struct ChangelogPageContent: Sendable, Hashable {
  /// The roadmap board, with the project's settings.
  public var snapshot: BoardSnapshot
  /// The page's releases, newest first.
  public var releases: [Release]
  /// The features the releases name that readers can see, by id.
  public var features: [Int: Feature]
  /// Which page this is: 1 for the newest releases.
  public var page: Int
  /// Whether older releases follow on the next page.
  public var hasOlder: Bool

  /// The reader's languages, most preferred first (from `Accept-Language`): a feature's
  /// localized title, description and status are shown in the first of them it has.
  public var languages: [String]

  /// Creates the content of a changelog page.
  public init(
    snapshot: BoardSnapshot, releases: [Release], features: [Int: Feature] = [:], page: Int = 1,
    hasOlder: Bool = false,
    languages: [String] = []
  ) {
    self.snapshot = snapshot
    self.releases = releases
    self.features = features
    self.page = page
    self.hasOlder = hasOlder
    self.languages = languages
  }
}
