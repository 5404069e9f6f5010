/// The body of `PUT …/features/:id/imported-votes`: the votes to import into the feature's
/// anonymous part (the first import sets it, a later one moves it by the change).
public struct ImportedVotes: Sendable, Hashable {
  /// The count the source holds now, at least 0.
  public var count: Int
  /// Raise only: the anonymous part becomes `count` when it holds less, and `count` is then
  /// what was imported; when it holds `count` or more, nothing changes (`roadmapctl votes
  /// pull`, a copy of the source's count).
  public var raiseOnly: Bool

  /// Creates the body.
  public init(count: Int, raiseOnly: Bool = false) {
    self.count = count
    self.raiseOnly = raiseOnly
  }
}
