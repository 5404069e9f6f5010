/// Which features to list and how: the parameters of `GET …/features`.
public struct FeatureQuery: Sendable, Hashable {
  /// A board slug; nil means every public board.
  public var board: String?
  /// A stage id; nil leaves out archived stages.
  public var stage: Int?
  /// A tag id.
  public var tag: Int?
  /// Text to find in titles and descriptions, case-insensitively.
  public var search: String?
  /// The order.
  public var order: FeatureOrder
  /// Page size, 1–100.
  public var limit: Int
  /// The `next` of the previous page.
  public var cursor: String?

  /// Creates a query; the defaults list the top features of every public board, 20 a page.
  public init(
    board: String? = nil, stage: Int? = nil, tag: Int? = nil, search: String? = nil,
    order: FeatureOrder = .top, limit: Int = VoteFirstLimits.defaultPageSize,
    cursor: String? = nil
  ) {
    self.board = board
    self.stage = stage
    self.tag = tag
    self.search = search
    self.order = order
    self.limit = limit
    self.cursor = cursor
  }
}
