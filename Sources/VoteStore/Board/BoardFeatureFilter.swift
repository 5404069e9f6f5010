/// Which features a list holds: every condition given must hold.
public struct BoardFeatureFilter: Sendable, Hashable {
  /// A board slug.
  public var board: String?
  /// A stage id.
  public var stage: Int64?
  /// A tag id the feature carries.
  public var tag: Int64?
  /// Lower-cased text its search column contains.
  public var search: String?

  /// Creates a filter; no condition means every feature of the project.
  public init(board: String? = nil, stage: Int64? = nil, tag: Int64? = nil, search: String? = nil) {
    self.board = board
    self.stage = stage
    self.tag = tag
    self.search = search
  }
}
