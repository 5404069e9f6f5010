/// A tag features can carry.
public struct FeatureTag: Sendable, Hashable, Identifiable {
  /// The id; 0 in a tag not yet created.
  public var id: Int
  /// The name shown.
  public var name: String
  /// Its colour, when readable.
  public var color: ThemeColor?

  /// Creates a tag.
  public init(id: Int = 0, name: String, color: ThemeColor? = nil) {
    self.id = id
    self.name = name
    self.color = color
  }
}
