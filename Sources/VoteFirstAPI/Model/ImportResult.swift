/// What `POST …/import` created.
public struct ImportResult: Sendable, Hashable {
  /// Features created.
  public var features: Int
  /// Stages created.
  public var stages: Int
  /// Tags created.
  public var tags: Int
  /// Releases created.
  public var releases: Int
  /// Suggestions created.
  public var suggestions: Int

  /// Creates a result.
  public init(features: Int, stages: Int, tags: Int, releases: Int, suggestions: Int) {
    self.features = features
    self.stages = stages
    self.tags = tags
    self.releases = releases
    self.suggestions = suggestions
  }
}
