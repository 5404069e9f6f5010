/// A byte offset in a document whose line the reader knows.
///
/// The reader counts lines as it goes and notes one of these at every top-level feature, so a
/// caller that needs the text of a diagnostic's line (an excerpt under a message) can start
/// from the nearest one instead of counting every line break from the start of the document.
public struct KnownLine: Sendable, Hashable {
  /// The byte offset.
  public var offset: Int
  /// The 1-based line that the byte at `offset` is on.
  public var line: Int

  /// Creates a known line.
  ///
  /// - Parameters:
  ///   - offset: a byte offset in the document.
  ///   - line: the 1-based line of that byte.
  public init(offset: Int, line: Int) {
    self.offset = offset
    self.line = line
  }
}
