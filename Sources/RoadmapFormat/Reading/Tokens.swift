/// A string's raw bytes between its quotes.
struct StringToken: Sendable {
  var start: Int
  var end: Int
  /// Contains backslash escapes (decoding needs the slow path).
  var escaped: Bool = false
  /// Broken: an invalid escape or lone surrogate, or unterminated (the value read is repaired).
  var corrupt: Bool = false
  /// Holds bytes that are not UTF-8 (reported; the value read has U+FFFD in their place, so it
  /// is not the raw bytes). Set without ``corrupt``: the value is still kept.
  var invalidUTF8: Bool = false
  /// Its value is its raw bytes: no escapes, nothing broken or replaced.
  var isPlain: Bool { !escaped && !corrupt && !invalidUTF8 }
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

/// The distinct keys of one object read so far, for finding duplicates: a list while the object
/// is small, and from ``tableFrom`` keys on also a table from each key's identity (the bytes
/// of the string it decodes to), so that an object of n keys costs O(n) comparisons, not
/// O(n²): a 600 KB object of 50,000 keys took 6 s to validate, and one of escaped keys more
/// than 5 minutes.
struct ObjectKeys: Sendable {
  /// How many keys an object has before the table is built.
  static let tableFrom = 16

  /// The distinct keys, in order.
  private(set) var tokens: [StringToken] = []
  /// Each key's identity → its index in ``tokens``; nil while the object is small.
  private var table: [[UInt8]: Int]?

  /// The first key that is the same string as `key`, found by `equal` in a small object or
  /// by `identity` in a large one; nil after adding `key` as a new one.
  mutating func first(
    equalTo key: StringToken, equal: (StringToken, StringToken) -> Bool,
    identity: (StringToken) -> [UInt8]
  ) -> StringToken? {
    if table == nil && tokens.count < Self.tableFrom {
      if let first = tokens.first(where: { equal($0, key) }) { return first }
      tokens.append(key)
      return nil
    }
    if table == nil {
      var built: [[UInt8]: Int] = [:]
      built.reserveCapacity(tokens.count * 2)
      for (index, token) in tokens.enumerated() { built[identity(token)] = index }
      table = built
    }
    let name = identity(key)
    if let index = table?[name] { return tokens[index] }
    table?[name] = tokens.count
    tokens.append(key)
    return nil
  }
}
