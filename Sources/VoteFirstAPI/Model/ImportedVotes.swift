/// The body of `PUT …/features/:id/imported-votes`: the anonymous votes to set.
public struct ImportedVotes: Sendable, Hashable {
  /// The anonymous votes, at least 0.
  public var count: Int

  /// Creates the body.
  public init(count: Int) {
    self.count = count
  }
}
