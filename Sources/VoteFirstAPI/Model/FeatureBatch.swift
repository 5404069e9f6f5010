/// The body of `POST …/features/batch`: many features, upserted by ref in one transaction.
public struct FeatureBatch: Sendable, Hashable {
  /// The features; each needs a ref.
  public var features: [FeatureUpsert]

  /// Creates a batch.
  public init(features: [FeatureUpsert]) {
    self.features = features
  }
}
