import VoteFirstAPI

/// What the page of one feature shows.
public struct FeaturePageContent: Sendable, Hashable {
  /// The feature's board, with the project's settings, stages and tags.
  public var snapshot: BoardSnapshot
  /// The feature.
  public var feature: Feature
  /// The release it shipped in, when it names one that exists.
  public var release: Release?
  /// The changelog page that release is on (1: the newest releases).
  public var releasePage: Int

  /// The reader's languages, most preferred first (from `Accept-Language`): a feature's
  /// localized title, description and status are shown in the first of them it has.
  public var languages: [String]

  /// Creates the content of a feature page.
  public init(
    snapshot: BoardSnapshot, feature: Feature, release: Release? = nil, releasePage: Int = 1,
    languages: [String] = []
  ) {
    self.snapshot = snapshot
    self.feature = feature
    self.release = release
    self.releasePage = releasePage
    self.languages = languages
  }
}
