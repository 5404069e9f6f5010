/// Another place in a document that a diagnostic refers to, such as the first occurrence of a
/// duplicate id.
public struct RelatedLocation: Sendable, Hashable, Codable {
  /// What is at that place.
  public var message: String
  /// JSON pointer of that place.
  public var path: String
  /// 1-based line.
  public var line: Int
  /// 1-based column in Unicode scalars.
  public var column: Int

  /// Creates a related location.
  ///
  /// - Parameters:
  ///   - message: what is there.
  ///   - path: its JSON pointer.
  ///   - line: 1-based line.
  ///   - column: 1-based column.
  public init(message: String, path: String, line: Int, column: Int) {
    self.message = message
    self.path = path
    self.line = line
    self.column = column
  }
}
