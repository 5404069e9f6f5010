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
        var value: UInt32 = 0
        for offset in 0..<4 {
          value = value << 8 | UInt32(body[little ? index + 3 - offset : index + offset])
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        UTF8.encode(scalar) { output.append($0) }
        index += 4
      }
      return done()
    }
  }

  /// The UTF-16 code units of `body`, read in pairs of bytes without a copy (an incomplete
  /// last pair is dropped).
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
