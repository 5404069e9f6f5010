/// Numbers and values of any type (unknown keys, wrong types, elements that are not features).
extension RoadmapParser {
  /// Scans a number at `pos` (a `-` or a digit), reporting grammar problems.
  mutating func scanNumber() -> NumberToken {
    let start = pos
    var index = pos
    var valid = true
    var isInteger = true
    if index < count && base[index] == UInt8(ascii: "-") { index += 1 }
    if index < count && (base[index] == UInt8(ascii: "I") || base[index] == UInt8(ascii: "N")) {
      pos = index
      consumeWord()
      syntaxError(
        "non-finite-number", at: start,
        "\(snippet(start, pos) ?? "this value") is not a JSON number; write null or a "
          + "finite number")
      return NumberToken(start: start, end: pos, isInteger: false, valid: false)
    }
    func digits() -> Int {
      let first = index
      while index < count && base[index] >= UInt8(ascii: "0") && base[index] <= UInt8(ascii: "9") {
        index += 1
      }
      return index - first
    }
    let intStart = index
    let intDigits = digits()
    if intDigits == 0 || (intDigits > 1 && base[intStart] == UInt8(ascii: "0")) { valid = false }
    if index < count && base[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      if digits() == 0 { valid = false }
    }
    if index < count && (base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E")) {
      isInteger = false
      index += 1
      if index < count && (base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-")) {
        index += 1
      }
      if digits() == 0 { valid = false }
    }
    // Swallow the rest of a malformed number so recovery goes on after it.
    while index < count && Self.isNumberByte(base[index]) {
      valid = false
      index += 1
    }
    pos = index
    if !valid {
      let text = snippet(start, index) ?? "this number"
      let lexical = base[start] == UInt8(ascii: "-") || Self.isDigit(base[start])
      syntaxError(
        "invalid-number", at: start, rejected: !(lexical && ignoredDepth > 0),
        "\(text) is not a valid JSON number (no leading zeros, '+' or bare '.'); "
          + "write it as in 0, -12, 3.5 or 1e3")
    }
    return NumberToken(start: start, end: index, isInteger: isInteger, valid: valid)
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"),
      UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
      return true
    default:
      return false
    }
  }

  mutating func consumeWord() {
    while pos < count && Self.isWordByte(base[pos]) { pos += 1 }
  }

  /// The exact integer value of a number token, if it has one that fits in `Int`.
  enum IntegerReading {
    case value(Int)
    case fraction
    case outOfRange
  }

  func integerValue(_ token: NumberToken) -> IntegerReading {
    if token.isInteger {
      var index = token.start
      let negative = base[index] == UInt8(ascii: "-")
      if negative { index += 1 }
      var value = 0
      while index < token.end {
        let digit = Int(base[index] &- UInt8(ascii: "0"))
        let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (next, overflow2) =
          negative
          ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        if overflow1 || overflow2 { return .outOfRange }
        value = next
        index += 1
      }
      return .value(value)
    }
    return Self.decoderInteger(
      UnsafeBufferPointer(start: base + token.start, count: token.end - token.start))
  }

  /// How Foundation's `JSONDecoder` reads a number with a fraction or an exponent as an `Int`.
  ///
  /// It reads a `Double` first: one with no exact `Int` is rejected, and below 2^53 that
  /// `Double` is the value (`1.00000000000000000001` reads as 1). From 2^53 on, where a
  /// `Double` no longer tells neighbouring integers apart, it reads the text again as a
  /// `Decimal` (see `decimalInteger(_:)`), so `9007199254740993.5` reads as 9007199254740993
  /// and `4611686018427387904.5` is rejected.
  static func decoderInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> IntegerReading {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let double = Double(text), double.isFinite else { return .outOfRange }
    guard let exact = Int(exactly: double) else {
      return double.rounded() == double ? .outOfRange : .fraction
    }
    if double.magnitude < 0x1p53 { return .value(exact) }
    if let value = decimalInteger(bytes) { return .value(value) }
    return hasFraction(bytes) ? .fraction : .outOfRange
  }

  /// `JSONDecoder`'s `Decimal` reading of a valid JSON number as an `Int`, nil when it rejects
  /// it.
  ///
  /// The digits build a mantissa of at most 128 bits: past that, further digits of the integer
  /// part raise the exponent and those of the fraction are dropped; the exponent must stay
  /// within -128...127. Trailing zeros are taken off the mantissa, which must then fit in 64
  /// bits (`9007199254740993.0000` does, `4611686018427387904.5` does not); a negative exponent
  /// divides it by ten as many times, dropping the fraction, and a positive one multiplies it,
  /// within 64 bits. The result must fit in `Int`.
  static func decimalInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    var high: UInt64 = 0
    var low: UInt64 = 0
    var exponent = 0
    var full = false
    // mantissa = mantissa * 10 + digit, unless that passes 128 bits.
    func appendDigit(_ digit: UInt64) -> Bool {
      let (highTimesTen, highOverflow) = high.multipliedReportingOverflow(by: 10)
      let lowTimesTen = low.multipliedFullWidth(by: 10)
      let (newLow, carry) = lowTimesTen.low.addingReportingOverflow(digit)
      let (partial, overflow1) = highTimesTen.addingReportingOverflow(lowTimesTen.high)
      let (newHigh, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
      guard !highOverflow, !overflow1, !overflow2 else { return false }
      (high, low) = (newHigh, newLow)
      return true
    }
    while index < bytes.count && isDigit(bytes[index]) {
      let digit = UInt64(bytes[index] &- UInt8(ascii: "0"))
      index += 1
      if full || !appendDigit(digit) {
        full = true
        guard exponent < 127 else { return nil }
        exponent += 1
      }
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count && isDigit(bytes[index]) {
        let digit = UInt64(bytes[index] &- UInt8(ascii: "0"))
        index += 1
        if full { continue }
        guard appendDigit(digit) else {
          full = true
          continue
        }
        guard exponent > -128 else { return nil }
        exponent -= 1
      }
    }
    if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      var writtenNegative = false
      if index < bytes.count
        && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+"))
      {
        writtenNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var written = 0
      while index < bytes.count && isDigit(bytes[index]) {
        written = written * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        guard written <= 254 else { return nil }
        index += 1
      }
      exponent += writtenNegative ? -written : written
      guard exponent >= -128 && exponent <= 127 else { return nil }
    }
    guard high != 0 || low != 0 else { return 0 }
    // Trailing zeros off the mantissa.
    while true {
      let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: 10)
      let (lowQuotient, remainder) = UInt64(10).dividingFullWidth((highRemainder, low))
      guard remainder == 0 else { break }
      (high, low) = (highQuotient, lowQuotient)
      exponent += 1
    }
    guard high == 0 else { return nil }
    var magnitude = low
    if exponent < 0 {
      for _ in 0..<(-exponent) { magnitude /= 10 }
    } else {
      for _ in 0..<exponent {
        let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
        guard !overflow else { return nil }
        magnitude = product
      }
    }
    guard let value = Int(exactly: magnitude) else { return nil }
    return negative ? -value : value
  }

  /// Whether a valid JSON number has a fractional part (`2.5`, `25e-1`; not `2.0`, `250e-1`).
  static func hasFraction(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
    let integerStart = index
    while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    let integerEnd = index
    var fractionEnd = index
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count && isDigit(bytes[index]) { index += 1 }
      fractionEnd = index
    }
    var exponent = 0
    if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
      index += 1
      let writtenNegative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
      if index < bytes.count
        && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+"))
      {
        index += 1
      }
      while index < bytes.count && isDigit(bytes[index]) {
        exponent = min(exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")), 1 << 40)
        index += 1
      }
      if writtenNegative { exponent = -exponent }
    }
    // The value is the digits (integer then fraction, without the point) times 10^scale.
    let fractionDigits = fractionEnd > integerEnd ? fractionEnd - integerEnd - 1 : 0
    var scale = exponent - fractionDigits
    var last = fractionEnd - 1
    while last >= integerStart && scale < 0 {
      if bytes[last] == UInt8(ascii: ".") {
        last -= 1
        continue
      }
      guard bytes[last] == UInt8(ascii: "0") else { return true }
      scale += 1
      last -= 1
    }
    return false
  }

  /// Parses a value the Roadmap package skips (an unknown key, a repeated key). JSONDecoder
  /// does not look inside strings and numbers it skips, so bad escapes, invalid UTF-8, control
  /// characters and malformed numbers there do not make the app reject the file.
  mutating func parseIgnoredValue(keep: Bool) -> JSONValue? {
    ignoredDepth += 1
    defer { ignoredDepth -= 1 }
    return parseValue(keep: keep)
  }

  /// Parses any value at `pos` (after whitespace), building it only when `keep` is set.
  mutating func parseValue(keep: Bool) -> JSONValue? {
    guard pos < count else {
      unexpectedCharacter(expected: "a value")
      return nil
    }
    let start = pos
    switch base[pos] {
    case UInt8(ascii: "\""):
      let token = scanString()
      return keep ? .string(decodeString(token)) : nil
    case UInt8(ascii: "{"):
      return parseObject(keep: keep)
    case UInt8(ascii: "["):
      return parseArray(keep: keep)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      let token = scanNumber()
      guard keep, token.valid else { return keep ? .null : nil }
      return .number(
        String(
          decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start),
          as: UTF8.self))
    case UInt8(ascii: "t"):
      if matchLiteral("true") { return .bool(true) }
    case UInt8(ascii: "f"):
      if matchLiteral("false") { return .bool(false) }
    case UInt8(ascii: "n"):
      if matchLiteral("null") { return .null }
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      _ = scanNumber()
      return keep ? .null : nil
    case UInt8(ascii: "+"), UInt8(ascii: "."):
      _ = scanNumber()
      return keep ? .null : nil
    case UInt8(ascii: "'"):
      return keep
        ? .string(scanSingleQuoted())
        : {
          _ = scanSingleQuoted()
          return nil
        }()
    default:
      break
    }
    if Self.isWordByte(base[pos]) {
      consumeWord()
      let word = snippet(start, pos) ?? "this word"
      syntaxError(
        "invalid-literal", at: start,
        "\(word) is not a JSON value; text must be in double quotes (\"\(word)\"), and the "
          + "literals are true, false and null, lowercase")
      return keep ? .null : nil
    }
    unexpectedCharacter(expected: "a value")
    return nil
  }

  /// Recovers a `'single-quoted'` string; reports it.
  mutating func scanSingleQuoted() -> String {
    let start = pos
    pos += 1
    while pos < count && base[pos] != UInt8(ascii: "'") && base[pos] != 0x0A && base[pos] != 0x0D {
      pos += 1
    }
    let value = String(
      decoding: UnsafeBufferPointer(start: base + start + 1, count: pos - start - 1), as: UTF8.self)
    if pos < count && base[pos] == UInt8(ascii: "'") { pos += 1 }
    syntaxError(
      "single-quoted-string", at: start,
      "JSON strings use double quotes: write \"\(value)\"")
    return value
  }

  /// Enters one nesting level; false (and the parse stops) past `maxDepth`.
  mutating func enter() -> Bool {
    depth += 1
    if depth > Self.maxDepth {
      syntaxError(
        "nesting-too-deep", at: pos, fatal: true,
        "values are nested more than \(Self.maxDepth) levels deep; Roadmap JSON needs four")
      return false
    }
    return true
  }

  mutating func parseArray(keep: Bool) -> JSONValue? {
    let open = pos
    guard enter() else { return nil }
    defer { depth -= 1 }
    pos += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if stopped { return nil }
    if pos < count && base[pos] == UInt8(ascii: "]") {
      pos += 1
      return keep ? .array([]) : nil
    }
    var index = 0
    while !stopped {
      path.append(.index(index))
      let element = parseValue(keep: keep)
      path.removeLast()
      if keep, let element { elements.append(element) }
      index += 1
      switch afterElement(closer: UInt8(ascii: "]"), open: open, inObject: false) {
      case .next: continue
      case .end: return keep ? .array(elements) : nil
      case .stop: return nil
      }
    }
    return nil
  }

  /// Reads an object key at `pos`, recovering unquoted and single-quoted keys.
  mutating func readKey() -> StringToken? {
    guard pos < count else {
      unexpectedCharacter(expected: "a key in double quotes")
      return nil
    }
    let byte = base[pos]
    if byte == UInt8(ascii: "\"") {
      return scanString()
    }
    if Self.isWordByte(byte) || byte == UInt8(ascii: "'") {
      let start = pos
      if byte == UInt8(ascii: "'") {
        let name = scanSingleQuoted()
        _ = name
        return StringToken(start: start + 1, end: max(start + 1, pos - 1))
      }
      consumeWord()
      syntaxError(
        "unquoted-key", at: start,
        "keys must be in double quotes: write \"\(snippet(start, pos) ?? "key")\"")
      return StringToken(start: start, end: pos)
    }
    unexpectedCharacter(expected: "a key in double quotes")
    return nil
  }

  /// After a key: the `:` (recovering a missing one), then whitespace.
  mutating func expectColon() -> Bool {
    skipWhitespace()
    if stopped { return false }
    if pos < count && base[pos] == UInt8(ascii: ":") {
      pos += 1
    } else if pos < count && Self.isValueStart(base[pos]) {
      syntaxError("missing-colon", at: pos, "missing ':' between the key and its value")
    } else {
      unexpectedCharacter(expected: "':' after the key")
      return false
    }
    skipWhitespace()
    if stopped { return false }
    if pos >= count {
      unexpectedCharacter(expected: "a value")
      return false
    }
    return true
  }

  mutating func parseObject(keep: Bool) -> JSONValue? {
    let open = pos
    guard enter() else { return nil }
    defer { depth -= 1 }
    pos += 1
    var members: [(key: String, value: JSONValue)] = []
    var keys = ObjectKeys()
    skipWhitespace()
    if stopped { return nil }
    if pos < count && base[pos] == UInt8(ascii: "}") {
      pos += 1
      return keep ? .object(JSONObject()) : nil
    }
    while !stopped {
      guard let key = readKey() else { return nil }
      guard expectColon() else { return nil }
      let duplicateOf = firstKey(equalTo: key, in: &keys)
      path.append(.key(start: key.start, end: key.end, escaped: key.escaped))
      if let first = duplicateOf {
        reportDuplicateKey(key, firstOffset: first.start - 1)
        _ = parseIgnoredValue(keep: false)
      } else {
        let value = parseValue(keep: keep)
        if keep, let value { members.append((decodeString(key), value)) }
      }
      path.removeLast()
      switch afterElement(closer: UInt8(ascii: "}"), open: open, inObject: true) {
      case .next: continue
      case .end: return keep ? .object(JSONObject(members)) : nil
      case .stop: return nil
      }
    }
    return nil
  }

  /// Whether two keys are the same string: the same bytes once decoded (escapes resolved,
  /// invalid UTF-8 and lone surrogates replaced as the value read is). Not Swift's `==`,
  /// which would make canonically equivalent keys one and drop a value.
  func tokensEqual(_ left: StringToken, _ right: StringToken) -> Bool {
    if left.isPlain && right.isPlain {
      guard left.length == right.length else { return false }
      for offset in 0..<left.length where base[left.start + offset] != base[right.start + offset] {
        return false
      }
      return true
    }
    return decodeString(left).utf8.elementsEqual(decodeString(right).utf8)
  }

  /// A key's identity for ``ObjectKeys``: the bytes of the string it decodes to.
  func keyIdentity(_ token: StringToken) -> [UInt8] {
    if token.isPlain {
      return Array(UnsafeBufferPointer(start: base + token.start, count: token.length))
    }
    return Array(decodeString(token).utf8)
  }

  /// The first key of `keys` that is the same string as `key`; nil after adding `key`.
  func firstKey(equalTo key: StringToken, in keys: inout ObjectKeys) -> StringToken? {
    keys.first(equalTo: key, equal: tokensEqual, identity: keyIdentity)
  }

  mutating func reportDuplicateKey(_ key: StringToken, firstOffset: Int) {
    let name = decodeString(key)
    path.removeLast()
    let firstPath = pointer(appending: name)
    path.append(.key(start: key.start, end: key.end, escaped: key.escaped))
    report(
      "duplicate-key", .error, at: key.start - 1, rejected: false,
      related: [
        RelatedIssue(message: "first \"\(name)\" here", path: firstPath, offset: firstOffset)
      ],
      "\"\(name)\" appears twice in this object; the app keeps the first value and silently "
        + "drops this one: remove one of them")
  }
}
