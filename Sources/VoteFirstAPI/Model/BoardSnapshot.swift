/// What `GET …/board` answers: the project's settings, one board with its stages, the tags,
/// and the public custom boards.
public struct BoardSnapshot: Sendable, Hashable {
  /// The project id (the counters' namespace).
  public var project: String
  /// The project's settings and theme.
  public var settings: ProjectSettings
  /// The board asked for (`roadmap` by default).
  public var board: Board
  /// Its stages (or columns), in order.
  public var stages: [Stage]
  /// Every tag.
  public var tags: [FeatureTag]
  /// The public custom boards.
  public var boards: [Board]

  /// Creates a snapshot.
  public init(
    project: String, settings: ProjectSettings, board: Board, stages: [Stage],
    tags: [FeatureTag], boards: [Board]
  ) {
    self.project = project
    self.settings = settings
    self.board = board
    self.stages = stages
    self.tags = tags
    self.boards = boards
  }
}
