/// What `POST …/features/batch` answers.
public struct BatchResult: Sendable, Hashable {
  /// One feature of the batch, in input order.
  public struct Item: Sendable, Hashable {
    /// The feature's id.
    public var id: Int
    /// Its ref.
    public var ref: String
    /// Creates an item.
    public init(id: Int, ref: String) {
      self.id = id
      self.ref = ref
    }
  }

  /// Features created.
  public var created: Int
  /// Features changed.
  public var updated: Int
  /// Features that already held exactly this content.
  public var unchanged: Int
  /// Every feature of the batch, in input order.
  public var features: [Item]

  /// Creates a result.
  public init(created: Int, updated: Int, unchanged: Int, features: [Item]) {
    self.created = created
    self.updated = updated
    self.unchanged = unchanged
    self.features = features
  }
}
