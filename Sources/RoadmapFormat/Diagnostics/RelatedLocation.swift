/// Another place that a diagnostic refers to, such as the first occurrence of a duplicate id,
/// or a removed feature in the previous version.
public struct RelatedLocation: Sendable, Hashable, Codable {
  /// What is at that place.
  public var message: String
  /// JSON pointer of that place.
  public var path: String
  /// 1-based line.
  public var line: Int
  /// 1-based column in Unicode scalars.
  public var column: Int
  /// The document the line and column are in: the diagnostic's own, or the previous version.
  public var document: Document

  /// Creates a related location.
  ///
  /// - Parameters:
  ///   - message: what is there.
  ///   - path: its JSON pointer.
  ///   - line: 1-based line.
  ///   - column: 1-based column.
  ///   - document: the document the place is in; the diagnostic's own by default.
  public init(
    message: String, path: String, line: Int, column: Int, document: Document = .same
  ) {
    self.message = message
    self.path = path
    self.line = line
    self.column = column
    self.document = document
  }

  private enum CodingKeys: String, CodingKey {
    case message, path, line, column, document
  }

  /// Decodes a location; one written without `document` is in the diagnostic's own document.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    message = try container.decode(String.self, forKey: .message)
    path = try container.decode(String.self, forKey: .path)
    line = try container.decode(Int.self, forKey: .line)
    column = try container.decode(Int.self, forKey: .column)
    document = try container.decodeIfPresent(Document.self, forKey: .document) ?? .same
  }
}
