/// Any JSON value, keeping object key order and the exact text of numbers.
///
/// Used for keys the Roadmap format does not define (`url`, `date`, anything an app added), so
/// that they survive a read and a write unchanged.
public indirect enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, kept as the exact text of the source (`1.50`, `1e3`).
  case number(String)
  /// A string, unescaped.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, with its members in source order.
  case object(JSONObject)
}

extension JSONValue {
  /// Whether `text` is a number as JSON writes one (RFC 8259 section 6): an optional minus,
  /// an integer part without leading zeros, an optional fraction and an optional exponent.
  static func isJSONNumber(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    func digits() -> Int {
      let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    if bytes.first == UInt8(ascii: "0") {
      bytes = bytes.dropFirst()
    } else if digits() == 0 {
      return false
    }
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
        bytes = bytes.dropFirst()
      }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}
