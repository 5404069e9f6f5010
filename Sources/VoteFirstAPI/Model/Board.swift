/// A board: the roadmap board every project has (slug `roadmap`) or a custom one.
public struct Board: Sendable, Hashable, Identifiable {
  /// The slug of the roadmap board.
  public static let roadmapSlug = "roadmap"

  /// The slug, `^[a-z0-9][a-z0-9-]{0,62}$`.
  public var slug: String
  /// The name shown.
  public var name: String
  /// Whether readers see it (the roadmap board always is).
  public var isPublic: Bool
  /// Whether features on it can be voted on.
  public var votingEnabled: Bool

  /// Creates a board.
  public init(slug: String, name: String, isPublic: Bool = true, votingEnabled: Bool = true) {
    self.slug = slug
    self.name = name
    self.isPublic = isPublic
    self.votingEnabled = votingEnabled
  }

  /// The slug.
  public var id: String { slug }
}
