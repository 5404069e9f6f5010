/// A stage of the roadmap board, or a column of a custom board.
public struct Stage: Sendable, Hashable, Identifiable {
  /// The id; 0 in a stage not yet created.
  public var id: Int
  /// The slug of the board it belongs to.
  public var board: String
  /// The name (a Roadmap status, when migrated).
  public var name: String
  /// Its colour, when readable.
  public var color: ThemeColor?
  /// Where it stands: stages are listed by position, then id.
  public var position: Int
  /// Whether features in it can be voted on.
  public var votingEnabled: Bool
  /// Whether it is the archived stage (left out of listings unless asked for).
  public var isArchived: Bool
  /// Whether features in it are finished.
  public var isFinished: Bool

  /// Creates a stage.
  public init(
    id: Int = 0, board: String = Board.roadmapSlug, name: String, color: ThemeColor? = nil,
    position: Int = 0, votingEnabled: Bool = true, isArchived: Bool = false,
    isFinished: Bool = false
  ) {
    self.id = id
    self.board = board
    self.name = name
    self.color = color
    self.position = position
    self.votingEnabled = votingEnabled
    self.isArchived = isArchived
    self.isFinished = isFinished
  }
}
