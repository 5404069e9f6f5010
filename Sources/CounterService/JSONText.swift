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

  /// Appends `value` in decimal, as `String(value)` writes it, to `bytes` (no string made).
  static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    // The magnitude as unsigned, so Int64.min has one too.
    var rest = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }
}
