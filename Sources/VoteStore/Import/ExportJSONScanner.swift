import Foundation

/// A strict JSON (RFC 8259) reader over the bytes of an export file, with byte offsets for
/// every value, so that problems can be reported by line and column.
///
/// It reads the bytes in place (an array's storage, or a file mapped by ``ExportFileBytes``),
/// so the caller keeps them alive while it reads.
///
/// It reads what the export reader asks for (objects, arrays, scalars) and reports syntax
/// errors with the offset where the text stops being JSON. Numbers are kept as their
/// literal text, so a number too large for any integer type is reported as out of range,
/// not as bad JSON.
struct ExportJSONScanner {
  /// Where and why the text stops being JSON.
  struct SyntaxError: Error {
    var offset: Int
    var message: String
  }

  /// A scalar value, or the kind of a compound one (which the caller skips or descends into).
  enum Value {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case object
    case array

    /// The value's kind in words: `a string`, `an object`, …
    var noun: String {
      switch self {
      case .string: return "a string"
      case .number: return "a number"
      case .bool: return "true or false"
      case .null: return "null"
      case .object: return "an object"
      case .array: return "an array"
      }
    }
  }

  let bytes: UnsafeBufferPointer<UInt8>
  private(set) var offset = 0
  private var depth = 0

  /// How deeply arrays and objects may nest (exports need 4).
  static let maximumDepth = 64

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Skips spaces, tabs, CR and LF.
  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case 0x20, 0x09, 0x0A, 0x0D: offset += 1
      default: return
      }
    }
  }

  /// Whether only whitespace is left.
  mutating func atEnd() -> Bool {
    skipWhitespace()
    return offset == bytes.count
  }

  /// The next value's kind without consuming a compound value; scalars are consumed.
  mutating func value() throws(SyntaxError) -> (value: Value, offset: Int) {
    skipWhitespace()
    let start = offset
    guard offset < bytes.count else {
      throw SyntaxError(offset: offset, message: "the text ends where a value should be")
    }
    switch bytes[offset] {
    case 0x7B: return (.object, start)
    case 0x5B: return (.array, start)
    case 0x22: return (.string(try string()), start)
    case 0x74:
      try literal("true")
      return (.bool(true), start)
    case 0x66:
      try literal("false")
      return (.bool(false), start)
    case 0x6E:
      try literal("null")
      return (.null, start)
    case 0x2D, 0x30...0x39: return (.number(try number()), start)
    default:
      throw SyntaxError(
        offset: offset,
        message: "unexpected \(Self.describe(bytes[offset])) where a value should be")
    }
  }

  /// Reads an object whose `{` is next, calling `member` with each key and the key's offset
  /// (the scanner then stands before the member's value, which `member` must consume).
  mutating func object(
    _ member: (inout ExportJSONScanner, String, Int) throws(SyntaxError) -> Void
  ) throws(SyntaxError) {
    try enter(0x7B)
    skipWhitespace()
    if peek() == 0x7D {
      offset += 1
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      guard peek() == 0x22 else { throw expected("a member name in double quotes") }
      let keyOffset = offset
      let key = try string()
      skipWhitespace()
      guard peek() == 0x3A else { throw expected("':' after the member name") }
      offset += 1
      try member(&self, key, keyOffset)
      skipWhitespace()
      switch peek() {
      case 0x2C: offset += 1
      case 0x7D:
        offset += 1
        depth -= 1
        return
      default: throw expected("',' or '}'")
      }
    }
  }

  /// Reads an array whose `[` is next, calling `element` with each index (the scanner then
  /// stands before the element, which `element` must consume).
  mutating func array(
    _ element: (inout ExportJSONScanner, Int) throws(SyntaxError) -> Void
  ) throws(SyntaxError) {
    try enter(0x5B)
    skipWhitespace()
    if peek() == 0x5D {
      offset += 1
      depth -= 1
      return
    }
    var index = 0
    while true {
      try element(&self, index)
      index += 1
      skipWhitespace()
      switch peek() {
      case 0x2C: offset += 1
      case 0x5D:
        offset += 1
        depth -= 1
        return
      default: throw expected("',' or ']'")
      }
    }
  }

  /// Consumes one value of any kind.
  mutating func skipValue() throws(SyntaxError) {
    try skipCompound(try value().value)
  }

  /// Consumes the rest of `value` when it is an object or array (whose opener is next).
  mutating func skipCompound(_ value: Value) throws(SyntaxError) {
    switch value {
    case .object: try object { scanner, _, _ throws(SyntaxError) in try scanner.skipValue() }
    case .array: try array { scanner, _ throws(SyntaxError) in try scanner.skipValue() }
    default: break
    }
  }

  // MARK: Pieces

  /// Skips the next value by matching its brackets and its strings' quotes, checking nothing
  /// else: for a value that the caller reads strictly afterwards from the range it spans (a
  /// backup's `votes`, which ``VoteExport/check(_:range:keepingKeys:)`` reads), in a fraction
  /// of the time a strict reading takes. For a value that is strict JSON the range is the
  /// value's; for one that is not, it may be anything, and the strict reading says what is
  /// wrong. A scalar is read as ``value()`` reads it. `passed` is called with the offset
  /// reached every ``ExportFileBytes/releaseStep`` bytes.
  mutating func skim(passed: (Int) -> Void = { _ in }) throws(SyntaxError) {
    skipWhitespace()
    guard let first = peek(), first == 0x7B || first == 0x5B else {
      _ = try value()
      return
    }
    guard let base = bytes.baseAddress else { return }
    let count = bytes.count
    var index = offset
    var nesting = 0
    var inString = false
    while index < count {
      let stop = min(count, index + ExportFileBytes.releaseStep)
      while index < stop {
        let byte = base[index]
        index += 1
        if inString {
          if byte == 0x5C {
            index += 1
          } else if byte == 0x22 {
            inString = false
          }
          continue
        }
        switch byte {
        case 0x22: inString = true
        case 0x7B, 0x5B: nesting += 1
        case 0x7D, 0x5D:
          nesting -= 1
          if nesting == 0 {
            offset = index
            return
          }
        default: break
        }
      }
      passed(min(index, count))
    }
    throw SyntaxError(offset: count, message: "the text ends inside a value")
  }

  private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

  private mutating func enter(_ opener: UInt8) throws(SyntaxError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw SyntaxError(offset: offset, message: "nested more than \(Self.maximumDepth) deep")
    }
    offset += 1
  }

  private func expected(_ what: String) -> SyntaxError {
    guard let byte = peek() else {
      return SyntaxError(offset: offset, message: "the text ends where \(what) should be")
    }
    return SyntaxError(offset: offset, message: "expected \(what), found \(Self.describe(byte))")
  }

  private mutating func literal(_ word: String) throws(SyntaxError) {
    let expected = Array(word.utf8)
    guard bytes.count - offset >= expected.count,
      Array(bytes[offset..<offset + expected.count]) == expected
    else {
      throw SyntaxError(
        offset: offset,
        message: "unexpected \(Self.describe(bytes[offset])) where a value should be")
    }
    offset += expected.count
  }

  /// A number's literal text, checked against JSON's grammar.
  private mutating func number() throws(SyntaxError) -> String {
    let start = offset
    if peek() == 0x2D { offset += 1 }
    guard let first = peek(), (0x30...0x39).contains(first) else {
      throw SyntaxError(offset: offset, message: "a number needs digits after '-'")
    }
    if first == 0x30 {
      offset += 1
      if let next = peek(), (0x30...0x39).contains(next) {
        throw SyntaxError(offset: offset, message: "a number may not have leading zeros")
      }
    } else {
      while let digit = peek(), (0x30...0x39).contains(digit) { offset += 1 }
    }
    if peek() == 0x2E {
      offset += 1
      guard let digit = peek(), (0x30...0x39).contains(digit) else {
        throw SyntaxError(offset: offset, message: "a number needs digits after '.'")
      }
      while let digit = peek(), (0x30...0x39).contains(digit) { offset += 1 }
    }
    if peek() == 0x65 || peek() == 0x45 {
      offset += 1
      if peek() == 0x2B || peek() == 0x2D { offset += 1 }
      guard let digit = peek(), (0x30...0x39).contains(digit) else {
        throw SyntaxError(offset: offset, message: "a number needs digits in its exponent")
      }
      while let digit = peek(), (0x30...0x39).contains(digit) { offset += 1 }
    }
    return String(decoding: bytes[start..<offset], as: UTF8.self)
  }

  /// A string whose `"` is next, with escapes decoded; invalid UTF-8, raw control
  /// characters and lone surrogates are syntax errors.
  private mutating func string() throws(SyntaxError) -> String {
    offset += 1
    var scalars = String.UnicodeScalarView()
    var runStart = offset
    func flush(_ end: Int) throws(SyntaxError) {
      guard runStart < end else { return }
      guard let text = String(bytes: bytes[runStart..<end], encoding: .utf8) else {
        throw SyntaxError(offset: runStart, message: "the text is not valid UTF-8")
      }
      scalars.append(contentsOf: text.unicodeScalars)
    }
    while true {
      guard let byte = peek() else {
        throw SyntaxError(offset: offset, message: "a string is not closed")
      }
      switch byte {
      case 0x22:
        try flush(offset)
        offset += 1
        return String(scalars)
      case 0x5C:
        try flush(offset)
        offset += 1
        guard let escape = peek() else {
          throw SyntaxError(offset: offset, message: "a string is not closed")
        }
        offset += 1
        switch escape {
        case 0x22: scalars.append("\"")
        case 0x5C: scalars.append("\\")
        case 0x2F: scalars.append("/")
        case 0x62: scalars.append("\u{8}")
        case 0x66: scalars.append("\u{C}")
        case 0x6E: scalars.append("\n")
        case 0x72: scalars.append("\r")
        case 0x74: scalars.append("\t")
        case 0x75: scalars.append(try unicodeEscape())
        default:
          throw SyntaxError(
            offset: offset - 2, message: "unknown escape \\\(Self.describe(escape))")
        }
        runStart = offset
      case 0x00..<0x20:
        throw SyntaxError(
          offset: offset,
          message: "a control character (\(Self.describe(byte))) inside a string must be escaped")
      default:
        offset += 1
      }
    }
  }

  /// The scalar of `\uXXXX` (the `\u` consumed), joining a surrogate pair.
  private mutating func unicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
    let start = offset - 2
    let high = try hex4()
    if (0xD800...0xDBFF).contains(high) {
      guard bytes.count - offset >= 2, bytes[offset] == 0x5C, bytes[offset + 1] == 0x75 else {
        throw SyntaxError(offset: start, message: "a lone surrogate \\u\(String(high, radix: 16))")
      }
      offset += 2
      let low = try hex4()
      guard (0xDC00...0xDFFF).contains(low) else {
        throw SyntaxError(offset: start, message: "a lone surrogate \\u\(String(high, radix: 16))")
      }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }
    guard let scalar = Unicode.Scalar(high) else {
      throw SyntaxError(offset: start, message: "a lone surrogate \\u\(String(high, radix: 16))")
    }
    return scalar
  }

  private mutating func hex4() throws(SyntaxError) -> UInt32 {
    guard bytes.count - offset >= 4 else {
      throw SyntaxError(offset: offset, message: "\\u needs four hex digits")
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[offset]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw SyntaxError(offset: offset, message: "\\u needs four hex digits")
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }

  /// A byte in words: `'x'`, or `byte 0xFF`.
  static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true)
  }
}
