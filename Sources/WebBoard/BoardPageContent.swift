import VoteFirstAPI

/// What the page of a board shows: the board, its columns, and one page of its feedback list.
public struct BoardPageContent: Sendable, Hashable {
  /// The board as `GET …/board` gives it.
  public var snapshot: BoardSnapshot
  /// The columns, in the owner's order (archived stages left out by the caller).
  public var columns: [BoardColumn]
  /// The filters and order of the feedback list (its `board` is ignored).
  public var query: FeatureQuery
  /// The feedback list's page.
  public var list: FeaturePage

  /// The reader's languages, most preferred first (from `Accept-Language`): a feature's
  /// localized title, description and status are shown in the first of them it has.
  public var languages: [String]

  /// Creates the content of a board page.
  public init(
    snapshot: BoardSnapshot, columns: [BoardColumn], query: FeatureQuery, list: FeaturePage,
    languages: [String] = []
  ) {
    self.snapshot = snapshot
    self.columns = columns
    self.query = query
    self.list = list
    self.languages = languages
  }
}
