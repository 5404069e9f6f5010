/// A position in a source document.
///
/// Both numbers are 1-based; the column counts Unicode scalars, not bytes.
public struct SourceLocation: Sendable, Hashable, Codable {
  /// The line, starting at 1.
  public var line: Int
  /// The column in Unicode scalars, starting at 1.
  public var column: Int

  /// Creates a location.
  ///
  /// - Parameters:
  ///   - line: 1-based line.
  ///   - column: 1-based column in Unicode scalars.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }
}
