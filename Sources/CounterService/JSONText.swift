import RoadmapFormat

/// Builds small JSON documents as text, without a JSON encoder's allocations and key sorting.
///
/// The service writes a handful of fixed shapes; building them by hand keeps the key order of
/// the originals (`{"old_value":…,"value":…}`) and keeps `/get` cheap.
struct JSONText {
  private(set) var text = "{"
  private var first = true

  /// Appends `"name":` and a raw (already JSON) value.
  mutating func raw(_ name: String, _ value: String) {
    if !first { text += "," }
    first = false
    text += JSONText.quoted(name)
    text += ":"
    text += value
  }

  /// Appends a string member.
  mutating func string(_ name: String, _ value: String?) {
    raw(name, value.map(JSONText.quoted) ?? "null")
  }

  /// Appends an integer member.
  mutating func int(_ name: String, _ value: Int64?) {
    raw(name, value.map { String($0) } ?? "null")
  }

  /// Appends a boolean member.
  mutating func bool(_ name: String, _ value: Bool?) {
    raw(name, value.map { $0 ? "true" : "false" } ?? "null")
  }

  /// The finished object.
  var object: String { text + "}" }

  /// `value` as a JSON string literal (RoadmapFormat's `JSONString`, shared by every writer).
  static func quoted(_ value: String) -> String {
    JSONString.quoted(value)
  }
}
