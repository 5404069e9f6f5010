/// Writes a Swift string as a JSON string literal: the one escaper every JSON writer of the
/// package uses (the canonical Roadmap writer, `roadmapctl`'s JSON output, the counter service's
/// bodies).
///
/// The output is UTF-8 and escapes only what it must, plus two characters that are legal in
/// JSON but not in JavaScript source:
///
/// - `"` and `\` as `\"` and `\\`;
/// - the control characters U+0000…U+001F: `\b`, `\t`, `\n`, `\f`, `\r` for those that have a
///   short form, `\u00XX` (lowercase hex) for the rest;
/// - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR as `\u2028` and `\u2029`, so the
///   text can also be embedded in a `<script>` or evaluated as JavaScript.
///
/// Every other character, including non-ASCII text and emoji, is written as itself. Any JSON
/// parser reads the literal back as the original string.
public enum JSONString {
  /// `text` as a JSON string literal, quotes included: `He said "hi"` gives
  /// `"He said \"hi\""`.
  public static func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 2)
    appendQuoted(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `text` as a JSON string literal, quotes included, in UTF-8 to `bytes`.
  ///
  /// Runs of characters that need no escape are copied in one step, so long plain strings cost
  /// little more than their length.
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(quote)
    var text = text
    text.withUTF8 { buffer in
      var start = 0
      var index = 0
      while index < buffer.count {
        let byte = buffer[index]
        let escapeLength: Int
        if byte < 0x20 || byte == quote || byte == backslash {
          escapeLength = 1
        } else if byte == 0xE2, index + 2 < buffer.count, buffer[index + 1] == 0x80,
          buffer[index + 2] == 0xA8 || buffer[index + 2] == 0xA9
        {
          escapeLength = 3
        } else {
          index += 1
          continue
        }
        if start < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
        }
        let scalar: UInt32 =
          escapeLength == 1 ? UInt32(byte) : (buffer[index + 2] == 0xA8 ? 0x2028 : 0x2029)
        appendEscape(scalar, to: &bytes)
        index += escapeLength
        start = index
      }
      if start < buffer.count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<buffer.count]))
      }
    }
    bytes.append(quote)
  }

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends the escape sequence of `scalar` (a control character, `"`, `\`, U+2028 or U+2029).
  private static func appendEscape(_ scalar: UInt32, to bytes: inout [UInt8]) {
    bytes.append(backslash)
    switch scalar {
    case UInt32(quote): bytes.append(quote)
    case UInt32(backslash): bytes.append(backslash)
    case 0x08: bytes.append(UInt8(ascii: "b"))
    case 0x09: bytes.append(UInt8(ascii: "t"))
    case 0x0A: bytes.append(UInt8(ascii: "n"))
    case 0x0C: bytes.append(UInt8(ascii: "f"))
    case 0x0D: bytes.append(UInt8(ascii: "r"))
    default:
      bytes.append(UInt8(ascii: "u"))
      for shift in stride(from: 12, through: 0, by: -4) {
        bytes.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)])
      }
    }
  }
}
