import VoteFirstAPI

/// One column of the roadmap: a stage and the features in it, most votes first.
public struct BoardColumn: Sendable, Hashable {
  /// The stage.
  public var stage: Stage
  /// Its features, in the order drawn.
  public var features: [Feature]
  /// Whether the stage holds more features than these (the column links to the full list).
  public var hasMore: Bool

  /// Creates a column.
  public init(stage: Stage, features: [Feature], hasMore: Bool = false) {
    self.stage = stage
    self.features = features
    self.hasMore = hasMore
  }
}
