import RoadmapFormat

/// Writes JSON text by hand, so key order and layout are exactly what the docs promise.
enum JSONText {
  /// `text` as a JSON string literal, quotes included (``JSONString`` escapes it).
  static func quote(_ text: String) -> String {
    JSONString.quoted(text)
  }

  /// An optional string as a literal or `null`.
  static func quote(_ text: String?) -> String {
    text.map { quote($0) } ?? "null"
  }
}
