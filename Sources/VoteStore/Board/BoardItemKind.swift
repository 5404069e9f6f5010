/// The kinds of board object kept in tables of one shape (`project, id, key, sort, doc`).
///
/// `key` and `sort` mean what each kind needs: a board's slug and position, a stage's board
/// and position, a release's date, a suggestion's state and creation time.
public enum BoardItemKind: String, Sendable, CaseIterable {
  /// Boards: key = slug, sort = position.
  case board = "vf_boards"
  /// Stages: key = board slug, sort = position.
  case stage = "vf_stages"
  /// Tags: key = "", sort = 0.
  case tag = "vf_tags"
  /// Releases: key = "", sort = date in ms.
  case release = "vf_releases"
  /// Suggestions: key = state, sort = creation time in ms.
  case suggestion = "vf_suggestions"

  /// The table (a constant, never user input).
  var table: String { rawValue }
}
