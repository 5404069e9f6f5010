/// The body of `PUT …/features/:id/imported-votes`: the votes to import into the feature's
/// anonymous part (the first import sets it, a later one moves it by the change).
public struct ImportedVotes: Sendable, Hashable {
  /// The count the source holds now, at least 0.
  public var count: Int

  /// Creates the body.
  public init(count: Int) {
    self.count = count
  }
}
