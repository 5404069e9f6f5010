/// One board object as stored: its identity, the two columns it is found and ordered by, and
/// its JSON document (written and read by the service, opaque to the store).
public struct BoardItemRow: Sendable, Hashable, Codable {
  /// The project (the counters' namespace).
  public var project: String
  /// The id, unique within the project and kind.
  public var id: Int64
  /// A lookup column (see ``BoardItemKind``).
  public var key: String
  /// An ordering column (see ``BoardItemKind``).
  public var sort: Int64
  /// The object as JSON.
  public var doc: String

  /// Creates a row.
  public init(project: String, id: Int64, key: String, sort: Int64, doc: String) {
    self.project = project
    self.id = id
    self.key = key
    self.sort = sort
    self.doc = doc
  }
}
