/// A string's raw bytes between its quotes.
struct StringToken: Sendable {
  var start: Int
  var end: Int
  /// Contains backslash escapes (decoding needs the slow path).
  var escaped: Bool = false
  /// Broken: an invalid escape, lone surrogate or invalid UTF-8 (the value read is repaired).
  var corrupt: Bool = false
  /// Not closed on its line.
  var unterminated: Bool = false

  var length: Int { end - start }
}

/// A number's raw text.
struct NumberToken: Sendable {
  var start: Int
  var end: Int
  /// No fraction and no exponent.
  var isInteger: Bool
  /// Follows the JSON grammar.
  var valid: Bool
}

/// The kind of JSON value starting with a byte, for messages.
enum ValueKind: String, Sendable {
  case string, number, boolean, null, object, array, other

  init(firstByte byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""): self = .string
    case UInt8(ascii: "{"): self = .object
    case UInt8(ascii: "["): self = .array
    case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .boolean
    case UInt8(ascii: "n"): self = .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): self = .number
    default: self = .other
    }
  }

  /// `a string`, `an object`, … for messages.
  var withArticle: String {
    switch self {
    case .string: "a string"
    case .number: "a number"
    case .boolean: "a boolean"
    case .null: "null"
    case .object: "an object"
    case .array: "an array"
    case .other: "an invalid value"
    }
  }
}
