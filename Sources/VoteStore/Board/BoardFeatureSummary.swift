/// What ordering and paging a feature list needs, with the feature's current vote count.
public struct BoardFeatureSummary: Sendable, Hashable {
  /// The id.
  public var id: Int64
  /// Its board's slug.
  public var board: String
  /// Its stage's id.
  public var stage: Int64?
  /// Its comment count.
  public var comments: Int64
  /// When it was first stored, in ms since 1970.
  public var createdAt: Int64
  /// Its counter's value (0 when the counter does not exist yet).
  public var votes: Int64

  /// Creates a summary.
  public init(
    id: Int64, board: String, stage: Int64?, comments: Int64, createdAt: Int64, votes: Int64
  ) {
    self.id = id
    self.board = board
    self.stage = stage
    self.comments = comments
    self.createdAt = createdAt
    self.votes = votes
  }
}
