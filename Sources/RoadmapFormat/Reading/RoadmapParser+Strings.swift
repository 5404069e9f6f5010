/// Strings: scanning with validation (escapes, surrogates, UTF-8, control characters) and
/// decoding only for values that are kept.
extension RoadmapParser {
  /// Scans the string whose opening quote is at `pos`; `pos` ends after the closing quote.
  ///
  /// Sixteen bytes at a time (`ByteBlock`): each block is tested for `"`, `\` and control
  /// characters at once and the first one found is jumped to directly; the last bytes of the
  /// buffer, too few for a block, go one by one. Non-ASCII bytes are only noted on the way; the
  /// string is checked for valid UTF-8 afterwards, and only if it had any.
  mutating func scanString() -> StringToken {
    let open = pos
    var token = StringToken(start: open + 1, end: open + 1)
    var index = open + 1
    // The bytes passed, ORed together (the high bit says whether any was not ASCII).
    var passed = ByteBlock.Vector()
    let width = ByteBlock.width
    while true {
      while index + width <= count {
        let block = ByteBlock.load(base, index)
        let stops = ByteBlock.stringStops(block)
        if ByteBlock.isZero(stops) {
          passed |= block
          index += width
          continue
        }
        let lane = ByteBlock.firstNonZeroLane(stops)
        passed |= block & ByteBlock.lanes(below: lane)
        index += lane
        break
      }
      if index + width > count {
        while index < count {
          let byte = base[index]
          if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
          passed[0] |= byte
          index += 1
        }
      }
      guard index < count else {
        token.end = count
        token.unterminated = true
        pos = count
        syntaxError(
          "unterminated-string", at: open, fatal: true,
          "this string is not closed: the file ends before its closing '\"'")
        return checkedUTF8(token, passed)
      }
      let byte = base[index]
      if byte == 0x22 {
        token.end = index
        pos = index + 1
        return checkedUTF8(token, passed)
      }
      if byte == 0x5C {
        token.escaped = true
        index = scanEscape(at: index, token: &token)
        if stopped {
          token.end = min(index, count)
          pos = count
          return checkedUTF8(token, passed)
        }
        continue
      }
      if (byte == 0x0A || byte == 0x0D) && !lineBreakIsInsideString(at: index) {
        token.end = index
        token.unterminated = true
        token.corrupt = true
        pos = index
        afterUnterminated = true
        syntaxError(
          "unterminated-string", at: open,
          "this string is not closed on its line: add the closing '\"' (a line break inside "
            + "a string must be written \\n)")
        return checkedUTF8(token, passed)
      }
      let what = byte == 0x0A || byte == 0x0D ? "line break" : "control character"
      syntaxError(
        "control-character-in-string", at: index, rejected: ignoredDepth == 0,
        "a raw \(what) (U+\(String(format4: byte))) is not allowed in a string; "
          + "write it as \(Self.escapeSpelling(byte))"
          + (ignoredDepth > 0
            ? " (the app skips this value and still loads the file, but jq, Python and "
              + "browsers reject it)" : ""))
      // A line break read as part of a skipped string still starts a line of the file.
      if endsLine(at: index) { line += 1 }
      index += 1
    }
  }

  /// Whether the raw line break at `index`, inside a string, is read as part of that string
  /// (a control character) rather than as the end of a string left open on its line.
  ///
  /// Where the value is one the app uses, a raw line break is taken for a missing closing
  /// quote: the app rejects the file either way, and the lines after it are read as they were
  /// meant. In a value the app skips (an unknown key, a repeated key), `JSONDecoder` does not
  /// look at the characters, so it reads the string to its closing quote and loads the file.
  /// The string is read that way too when that quote is followed by what may come after a
  /// string (`,` `}` `]` `:`); otherwise JSON cannot be read that way and the app rejects the
  /// file too, so the line break is taken for the missing quote, which explains it best.
  ///
  /// Once a string is found to run past its line breaks, the others up to its closing quote
  /// are not looked ahead again (`lineBreaksReadUntil`), so a long string costs one pass.
  mutating func lineBreakIsInsideString(at index: Int) -> Bool {
    guard ignoredDepth > 0 else { return false }
    if index < lineBreaksReadUntil { return true }
    // The closing quote as JSONDecoder's scanner finds it: a backslash takes the next byte,
    // and `\u` the four after it.
    var close = index + 1
    while close < count && base[close] != 0x22 {
      guard base[close] == 0x5C else {
        close += 1
        continue
      }
      close += close + 1 < count && base[close + 1] == UInt8(ascii: "u") ? 6 : 2
    }
    guard close < count else { return false }
    var next = close + 1
    while next < count, [0x20, 0x09, 0x0A, 0x0D].contains(base[next]) { next += 1 }
    guard next < count, [0x2C, 0x7D, 0x5D, 0x3A].contains(base[next]) else { return false }
    lineBreaksReadUntil = close
    return true
  }

  /// `token`, once its bytes are checked for valid UTF-8 if any of those `passed` was not ASCII.
  ///
  /// The check reports the first invalid byte; the token goes back as it was scanned (a bad
  /// byte is reported, but does not mark the token corrupt: the reader has always worked so).
  @inline(__always)
  mutating func checkedUTF8(_ token: StringToken, _ passed: ByteBlock.Vector) -> StringToken {
    guard ByteBlock.hasNonASCII(passed) else { return token }
    var checked = token
    validateUTF8(&checked)
    return checked
  }

  /// Checks the token's bytes for valid UTF-8, reporting the first invalid byte.
  ///
  /// A check sixteen bytes at a time decides first (`UTF8Blocks`); only a string it rejects is
  /// walked again, byte by byte, to find and report the first invalid byte.
  mutating func validateUTF8(_ token: inout StringToken) {
    if UTF8Blocks.accepts(base, from: token.start, to: token.end) { return }
    var index = token.start
    let end = token.end
    while index < end {
      let byte = base[index]
      if byte < 0x80 {
        index += 1
        // After an ASCII byte, skip whole ASCII words.
        while index + 8 <= end
          && UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            & 0x8080_8080_8080_8080 == 0
        {
          index += 8
        }
        continue
      }
      if byte >= 0xC2 && byte <= 0xDF {
        if index + 1 < end && base[index + 1] & 0xC0 == 0x80 {
          index += 2
          continue
        }
      } else if (byte >= 0xE1 && byte <= 0xEC) || byte == 0xEE || byte == 0xEF {
        if index + 2 < end && base[index + 1] & 0xC0 == 0x80 && base[index + 2] & 0xC0 == 0x80 {
          index += 3
          continue
        }
      } else {
        let length = utf8SequenceLength(at: index)
        if length > 0 && index + length <= end {
          index += length
          continue
        }
      }
      // Not corrupt: the value is kept, repaired, but it is no longer its raw bytes.
      token.invalidUTF8 = true
      syntaxError(
        "invalid-utf8", at: index, rejected: ignoredDepth == 0,
        "byte 0x\(String(byte, radix: 16, uppercase: true)) is not valid UTF-8; "
          + (ignoredDepth > 0 ? Self.skippedButRejectedElsewhere : "the app rejects the file")
          + ": save it as UTF-8")
      return
    }
  }

  /// What a problem in a value the app skips (an unknown or repeated key) means: the app
  /// loads the file all the same, other readers do not.
  static let skippedButRejectedElsewhere =
    "the app skips this value and still loads the file, but jq, Python and browsers reject it"

  static func escapeSpelling(_ byte: UInt8) -> String {
    switch byte {
    case 0x09: "\\t"
    case 0x0A: "\\n"
    case 0x0D: "\\r"
    case 0x08: "\\b"
    case 0x0C: "\\f"
    default: "\\u\(String(format4: byte))"
    }
  }

  /// Validates the escape whose backslash is at `index`; returns the index after it.
  mutating func scanEscape(at index: Int, token: inout StringToken) -> Int {
    guard index + 1 < count else {
      syntaxError(
        "unterminated-string", at: token.start - 1, fatal: true,
        "this string is not closed: the file ends inside an escape")
      return count
    }
    switch base[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return index + 2
    case UInt8(ascii: "u"):
      guard let unit = hex4(at: index + 2) else {
        token.corrupt = true
        // Even in a value it skips, JSONDecoder takes the four bytes after `\u` as the escape,
        // whatever they are, and rejects the file when one of them is a quote (the string
        // would end inside the escape). So there the string reads on after those four bytes;
        // elsewhere the app rejects the file anyway, and reading on after `\u` explains the
        // rest best.
        let end = min(index + 6, count)
        let quoteInside = (index + 2..<end).contains { base[$0] == 0x22 }
        syntaxError(
          "invalid-escape", at: index, rejected: ignoredDepth == 0 || quoteInside,
          "\\u must be followed by four hex digits, as in \\u00e9")
        guard ignoredDepth > 0 && !quoteInside else { return index + 2 }
        for skipped in index + 2..<end where endsLine(at: skipped) { line += 1 }
        return end
      }
      if unit >= 0xD800 && unit <= 0xDBFF {
        if index + 7 < count && base[index + 6] == 0x5C && base[index + 7] == UInt8(ascii: "u"),
          let low = hex4(at: index + 8), low >= 0xDC00 && low <= 0xDFFF
        {
          return index + 12
        }
        token.corrupt = true
        syntaxError(
          "lone-surrogate", at: index, rejected: ignoredDepth == 0,
          "\\u\(String(unit, radix: 16)) is half of a surrogate pair with no low half after it; "
            + (ignoredDepth > 0 ? Self.skippedButRejectedElsewhere : "JSONDecoder rejects the file")
            + ": write the character itself or the full pair")
        return index + 6
      }
      if unit >= 0xDC00 && unit <= 0xDFFF {
        token.corrupt = true
        syntaxError(
          "lone-surrogate", at: index, rejected: ignoredDepth == 0,
          "\\u\(String(unit, radix: 16)) is the low half of a surrogate pair with no high half "
            + "before it; "
            + (ignoredDepth > 0 ? Self.skippedButRejectedElsewhere : "JSONDecoder rejects the file")
            + ": write the character itself")
        return index + 6
      }
      return index + 6
    default:
      token.corrupt = true
      let next = base[index + 1]
      if next < 0x20 || next >= 0x80 {
        syntaxError(
          "invalid-escape", at: index, rejected: ignoredDepth == 0,
          "a backslash must start an escape such as \\n; write \\\\ for a backslash")
        return index + 1
      }
      syntaxError(
        "invalid-escape", at: index, rejected: ignoredDepth == 0,
        "\\\(Character(Unicode.Scalar(next))) is not a JSON escape; write \\\\ for a "
          + "backslash, or one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
      return index + 2
    }
  }

  func hex4(at index: Int) -> UInt32? {
    guard index + 4 <= count else { return nil }
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = base[index + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// The length of the valid UTF-8 sequence starting at `index`, or 0.
  @inline(__always)
  func utf8SequenceLength(at index: Int) -> Int {
    let lead = base[index]
    if lead < 0x80 { return 1 }
    @inline(__always) func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF)
      -> Bool
    {
      index + offset < count && base[index + offset] >= low && base[index + offset] <= high
    }
    switch lead {
    case 0xC2...0xDF:
      return continuation(1) ? 2 : 0
    case 0xE0:
      return continuation(1, 0xA0) && continuation(2) ? 3 : 0
    case 0xED:
      return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
    case 0xE1...0xEF:
      return continuation(1) && continuation(2) ? 3 : 0
    case 0xF0:
      return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3:
      return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4:
      return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
    default:
      return 0
    }
  }

  /// The string value of a token (escapes decoded; broken parts repaired with U+FFFD).
  func decodeString(_ token: StringToken) -> String {
    Self.decodeString(token, in: base)
  }

  /// The string value of a token in a buffer starting at `base`.
  static func decodeString(_ token: StringToken, in base: UnsafePointer<UInt8>) -> String {
    let raw = UnsafeBufferPointer(start: base + token.start, count: max(0, token.end - token.start))
    guard token.escaped else {
      return String(decoding: raw, as: UTF8.self)
    }
    var output: [UInt8] = []
    output.reserveCapacity(raw.count)
    var index = token.start
    let end = token.end
    func appendScalar(_ value: UInt32, to output: inout [UInt8]) {
      let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
      output.append(contentsOf: String(Character(scalar)).utf8)
    }
    while index < end {
      let byte = base[index]
      guard byte == 0x5C, index + 1 < end else {
        output.append(byte)
        index += 1
        continue
      }
      let next = base[index + 1]
      switch next {
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        guard index + 6 <= end, let unit = hex4(base, at: index + 2) else {
          output.append(byte)
          index += 1
          continue
        }
        if unit >= 0xD800 && unit <= 0xDBFF, index + 12 <= end, base[index + 6] == 0x5C,
          base[index + 7] == UInt8(ascii: "u"), let low = hex4(base, at: index + 8),
          low >= 0xDC00 && low <= 0xDFFF
        {
          appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &output)
          index += 12
          continue
        }
        appendScalar(unit, to: &output)
        index += 6
        continue
      default:
        if next < 0x20 {
          output.append(byte)
          index += 1
          continue
        }
        output.append(next)
      }
      index += 2
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Four hex digits at `index` (the caller checked the bounds).
  static func hex4(_ base: UnsafePointer<UInt8>, at index: Int) -> UInt32? {
    var value: UInt32 = 0
    for offset in 0..<4 {
      let byte = base[index + offset]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Whether the token's bytes equal `name` exactly.
  @inline(__always)
  func tokenEquals(_ token: StringToken, _ name: StaticString) -> Bool {
    let length = name.utf8CodeUnitCount
    guard token.end - token.start == length else { return false }
    let bytes = name.utf8Start
    for index in 0..<length where base[token.start + index] != bytes[index] {
      return false
    }
    return true
  }
}

extension String {
  /// Four uppercase hex digits.
  init(format4 value: UInt8) {
    let digits = String(value, radix: 16, uppercase: true)
    self = String(repeating: "0", count: 4 - digits.count) + digits
  }
}
