/// The layout of written JSON.
public enum RoadmapWriterStyle: Sendable {
  /// Two-space indentation, one key per line, `"key": value`, a final newline.
  case pretty
  /// No whitespace at all.
  case compact
}
