/// The Unicode encoding of a JSON text, told the way Foundation's `JSONDecoder` tells it (and so
/// the way the Roadmap package reads it): a byte-order mark, or else the pattern of zero bytes
/// in the first four (RFC 4627, section 3), since JSON text begins with ASCII.
///
/// A UTF-16 or UTF-32 file is read by the app: `JSONDecoder` converts it to UTF-8 first (an
/// incomplete last code unit is dropped; an unpaired surrogate or a scalar past U+10FFFF
/// rejects the file). ``transcode(_:)`` does the same, so the reader sees what the app sees.
enum TextEncoding: Sendable, Equatable {
  case utf16LittleEndian
  case utf16BigEndian
  case utf32LittleEndian
  case utf32BigEndian

  /// Its name in messages.
  var name: String {
    switch self {
    case .utf16LittleEndian: "UTF-16 (little-endian)"
    case .utf16BigEndian: "UTF-16 (big-endian)"
    case .utf32LittleEndian: "UTF-32 (little-endian)"
    case .utf32BigEndian: "UTF-32 (big-endian)"
    }
  }

  /// The encoding of `buffer` and the length of its byte-order mark, or nil for UTF-8 (with or
  /// without its mark) and for what is no text in any of these.
  static func detect(_ buffer: UnsafeBufferPointer<UInt8>) -> (TextEncoding, bom: Int)? {
    guard buffer.count >= 2 else { return nil }
    if buffer.count >= 4 && buffer.starts(with: [0, 0, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
    // FF FE 00 00 is a UTF-16 mark followed by U+0000 for JSONDecoder too (it rejects it).
    if buffer.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
    if buffer.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
    guard buffer.count >= 4 else { return nil }
    switch (buffer[0] == 0, buffer[1] == 0, buffer[2] == 0, buffer[3] == 0) {
    case (true, true, true, false): return (.utf32BigEndian, 0)
    case (false, true, true, true): return (.utf32LittleEndian, 0)
    case (true, false, true, false): return (.utf16BigEndian, 0)
    case (false, true, false, true): return (.utf16LittleEndian, 0)
    default: return nil
    }
  }

  /// A document converted to UTF-8: its encoding, whether it had a byte-order mark, the text.
  struct Converted: Sendable {
    var encoding: TextEncoding
    var hadMark: Bool
    var utf8: [UInt8]

    /// UTF-32 (little-endian) with its mark, which the app reads as UTF-16 starting with
    /// U+0000 and rejects: nothing in the text is what the app reads.
    var isMisreadUTF32: Bool { encoding == .utf16LittleEndian && hadMark && utf8.first == 0 }

    /// What the validator says about the file: an error, since JSON must be UTF-8 (RFC 8259)
    /// and most tools read nothing else, though the app reads it.
    var diagnostic: Diagnostic {
      let message: String
      if isMisreadUTF32 {
        // FF FE 00 00: JSONDecoder takes the mark for UTF-16's and reads U+0000 first.
        message =
          "the file is UTF-32 (little-endian), whose byte-order mark the app's JSONDecoder "
          + "takes for UTF-16's: it reads U+0000 and rejects the file; save it as UTF-8"
      } else {
        message =
          "the file is \(encoding.name)\(hadMark ? "" : " without a byte-order mark"); "
          + "the app's JSONDecoder converts it, but JSON must be UTF-8 (RFC 8259) and jq, "
          + "browsers and most other tools cannot read it: save it as UTF-8"
      }
      return Diagnostic(
        code: "invalid-encoding", severity: .error, message: message, path: "", line: 1,
        column: 1)
    }
  }

  /// `buffer` converted to UTF-8 when it is UTF-16 or UTF-32 that converts without error, nil
  /// otherwise (UTF-8, or what the app rejects).
  static func transcode(_ buffer: UnsafeBufferPointer<UInt8>) -> Converted? {
    guard let (encoding, bom) = detect(buffer) else { return nil }
    func done() -> Converted { Converted(encoding: encoding, hadMark: bom > 0, utf8: output) }
    var output: [UInt8] = []
    output.reserveCapacity(buffer.count)
    let body = UnsafeBufferPointer(rebasing: buffer[bom...])
    switch encoding {
    case .utf16LittleEndian, .utf16BigEndian:
      var units = CodeUnits(body: body, little: encoding == .utf16LittleEndian)
      var decoder = UTF16()
      while true {
        switch decoder.decode(&units) {
        case .scalarValue(let scalar): UTF8.encode(scalar) { output.append($0) }
        case .emptyInput: return done()
        case .error: return nil
        }
      }
    case .utf32LittleEndian, .utf32BigEndian:
      let little = encoding == .utf32LittleEndian
      var index = 0
      while index + 3 < body.count {
        let value = utf32Unit(body, at: index, little: little)
        guard let scalar = Unicode.Scalar(value) else { return nil }
        UTF8.encode(scalar) { output.append($0) }
        index += 4
      }
      return done()
    }
  }

  /// The UTF-16 code units of `body`, read in pairs of bytes without a copy (an incomplete
  /// last pair is dropped).
  /// Where a document in a detected UTF-16 or UTF-32 encoding stops converting.
  struct ConversionFailure: Sendable, Equatable {
    var encoding: TextEncoding
    var hadMark: Bool
    /// The line and column (in the text before it) of the value that does not convert.
    var line: Int
    var column: Int
    /// What is there: `an unpaired surrogate (0xD800)`, `0x110000, which is no character`.
    var what: String

    /// The message of the diagnostic: the app rejects the file.
    var message: String {
      "the file is \(encoding.name)\(hadMark ? "" : " without a byte-order mark"), which the "
        + "app's JSONDecoder converts, but this one does not convert: at line \(line), column "
        + "\(column) there is \(what), so the app rejects the whole file; write that character "
        + "again and save the file as UTF-8"
    }
  }

  /// Why a document that looks like UTF-16 or UTF-32 text (a byte-order mark, or the zero
  /// bytes and then a JSON bracket) does not convert; nil when it converts or looks like
  /// neither (a binary file is `not-text`).
  /// The UTF-32 code unit at `index` (four bytes in the given order).
  private static func utf32Unit(_ body: UnsafeBufferPointer<UInt8>, at index: Int, little: Bool)
    -> UInt32
  {
    var value: UInt32 = 0
    for offset in 0..<4 {
      value = value << 8 | UInt32(body[little ? index + 3 - offset : index + offset])
    }
    return value
  }

  static func conversionFailure(_ buffer: UnsafeBufferPointer<UInt8>) -> ConversionFailure? {
    guard let (encoding, bom) = detect(buffer) else { return nil }
    let body = UnsafeBufferPointer(rebasing: buffer[bom...])
    var line = 1
    var column = 1
    var sawText = false
    var afterReturn = false
    // Nil when the text so far is not what a JSON document starts with.
    func advance(_ scalar: Unicode.Scalar) -> Bool {
      if !sawText && !(scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r") {
        guard bom > 0 || scalar == "[" || scalar == "{" else { return false }
        sawText = true
      }
      // A line ends at LF, CRLF (once) or a lone CR, as `LineIndex` counts.
      if scalar == "\n" && afterReturn {
        // The LF of a CRLF: the CR already started the line.
      } else if scalar == "\n" || scalar == "\r" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      afterReturn = scalar == "\r"
      return true
    }
    func failure(_ what: String) -> ConversionFailure? {
      bom > 0 || sawText
        ? ConversionFailure(
          encoding: encoding, hadMark: bom > 0, line: line, column: column, what: what)
        : nil
    }
    func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }
    switch encoding {
    case .utf16LittleEndian, .utf16BigEndian:
      var units = CodeUnits(body: body, little: encoding == .utf16LittleEndian)
      while let unit = units.next() {
        let value: UInt32
        if (0xD800...0xDBFF).contains(unit) {
          var ahead = units
          guard let low = ahead.next(), (0xDC00...0xDFFF).contains(low) else {
            return failure("an unpaired surrogate (\(hex(UInt32(unit))))")
          }
          units = ahead
          value = 0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
          return failure("an unpaired surrogate (\(hex(UInt32(unit))))")
        } else {
          value = UInt32(unit)
        }
        guard let scalar = Unicode.Scalar(value), advance(scalar) else { return nil }
      }
    case .utf32LittleEndian, .utf32BigEndian:
      let little = encoding == .utf32LittleEndian
      var index = 0
      while index + 3 < body.count {
        let value = utf32Unit(body, at: index, little: little)
        guard let scalar = Unicode.Scalar(value) else {
          return failure("\(hex(value)), which is no Unicode character")
        }
        guard advance(scalar) else { return nil }
        index += 4
      }
    }
    return nil
  }

  private struct CodeUnits: IteratorProtocol {
    let body: UnsafeBufferPointer<UInt8>
    let little: Bool
    var index = 0

    mutating func next() -> UInt16? {
      guard index + 1 < body.count else { return nil }
      let (first, second) = (UInt16(body[index]), UInt16(body[index + 1]))
      index += 2
      return little ? first | second << 8 : first << 8 | second
    }
  }
}
