/// A feature as stored: the columns it is found and ordered by, and its JSON document.
public struct BoardFeatureRow: Sendable, Hashable, Codable {
  /// The project (the counters' namespace).
  public var project: String
  /// The id, unique within the project.
  public var id: Int64
  /// The external reference, unique within the project when present.
  public var ref: String?
  /// The key of its counter in the project's namespace.
  public var counterKey: String
  /// Its board's slug.
  public var board: String
  /// Its stage's id.
  public var stage: Int64?
  /// Its tags' ids.
  public var tags: [Int64]
  /// The lower-cased text `q` searches (titles and descriptions, every language).
  public var search: String
  /// Its comment count.
  public var comments: Int64
  /// When it was first stored, in ms since 1970.
  public var createdAt: Int64
  /// The content as JSON.
  public var doc: String

  /// Creates a row.
  public init(
    project: String, id: Int64, ref: String?, counterKey: String, board: String, stage: Int64?,
    tags: [Int64], search: String, comments: Int64, createdAt: Int64, doc: String
  ) {
    self.project = project
    self.id = id
    self.ref = ref
    self.counterKey = counterKey
    self.board = board
    self.stage = stage
    self.tags = tags
    self.search = search
    self.comments = comments
    self.createdAt = createdAt
    self.doc = doc
  }
}
