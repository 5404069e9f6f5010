/// One page of `GET …/features`: the features and the cursor of the next page.
public struct FeaturePage: Sendable, Hashable {
  /// The features, in the order asked for.
  public var features: [Feature]
  /// The cursor of the next page; nil on the last page.
  public var next: String?

  /// Creates a page.
  public init(features: [Feature], next: String?) {
    self.features = features
    self.next = next
  }
}
