import Foundation
import Testing

@testable import RoadmapFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The reader's block-at-a-time paths (`ByteBlock`: string ends, UTF-8, indentation) must
/// answer exactly as byte-by-byte reading would, wherever the byte that matters sits: at every
/// offset across two blocks, at a buffer's start and end, and at a mapped file's last byte.
@Suite("Block scanning")
struct BlockScanTests {
  static let width = ByteBlock.width

  /// Whether the standard library decodes `bytes` without repairing anything.
  static func wellFormed(_ bytes: ArraySlice<UInt8>) -> Bool {
    Array(String(decoding: bytes, as: UTF8.self).utf8) == Array(bytes)
  }

  /// `count` bytes of `filler` (whole characters), made up to exactly `count` with ASCII.
  static func fill(_ count: Int, with filler: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    while bytes.count + filler.count <= count { bytes += filler }
    while bytes.count < count { bytes.append(UInt8(ascii: "a")) }
    return bytes
  }

  static let fillers: [[UInt8]] = [Array("a".utf8), Array("é".utf8), Array("日".utf8)]

  /// Valid sequences at Unicode's limits, and every kind of invalid one.
  static let sequences: [[UInt8]] = [
    [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x98, 0x80],
    [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
    [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    // Never valid.
    [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF],
    // Overlong, surrogate, above U+10FFFF.
    [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
    [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
    // Cut short, or one continuation too many.
    [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98], [0xE6], [0xF0], [0xC3, 0xA9, 0xA9],
  ]

  @Test("UTF-8 by blocks agrees with the automaton and the standard library at every offset")
  func utf8AtEveryOffset() {
    // Bytes before and after the string that would complete or extend a sequence if they
    // were read as part of it.
    let outsides: [(before: [UInt8], after: [UInt8])] = [
      ([], []), ([0xF0, 0xE6, 0xC3], [0x80, 0x80, 0x80]), ([0xE6], [0xA9]), ([0x9F, 0xF0], []),
    ]
    var checked = 0
    for filler in Self.fillers {
      for sequence in Self.sequences {
        for offset in 0..<(2 * Self.width + 4) {
          for tail in [0, 1, 3, Self.width - 1, Self.width] {
            let text = Self.fill(offset, with: filler) + sequence + Self.fill(tail, with: filler)
            let expected = Self.wellFormed(text[...])
            for (before, after) in outsides where offset % 3 == 0 || before.count == 3 {
              let buffer = before + text + after
              let (blocks, automaton) = buffer.withUnsafeBufferPointer {
                (
                  UTF8Blocks.accepts(
                    $0.baseAddress!, from: before.count, to: before.count + text.count),
                  UTF8Automaton.accepts(
                    $0.baseAddress!, from: before.count, to: before.count + text.count)
                )
              }
              if blocks != expected || automaton != expected {
                Issue.record("\(before) \(text) \(after): blocks \(blocks), expected \(expected)")
              }
              checked += 1
            }
          }
        }
      }
    }
    #expect(checked > 10_000)
  }

  @Test("UTF-8 by blocks: every one- and two-byte sequence after and inside a block of text")
  func utf8EveryPair() {
    let lead = Self.fill(Self.width, with: Array("日".utf8))
    for first in 0...255 {
      for second in 0...255 {
        for text in [lead + [UInt8(first), UInt8(second)], [UInt8(first), UInt8(second)] + lead] {
          let accepted = text.withUnsafeBufferPointer {
            UTF8Blocks.accepts($0.baseAddress!, from: 0, to: text.count)
          }
          if accepted != Self.wellFormed(text[...]) {
            Issue.record("disagree on \(text)")
          }
        }
      }
    }
  }

  /// Scans the string whose opening quote is at `open` in `bytes`.
  static func scan(_ bytes: [UInt8], at open: Int) -> (
    token: StringToken, pos: Int, issues: [(code: String, offset: Int)]
  ) {
    bytes.withUnsafeBufferPointer { buffer in
      var parser = RoadmapParser(
        base: buffer.baseAddress!, count: buffer.count, collectWarnings: true)
      parser.pos = open
      let token = parser.scanString()
      return (token, parser.pos, parser.sink.issues.map { ($0.code, $0.offset) })
    }
  }

  /// A byte inside a string and what the reader must say about it at `offset`.
  struct Stop {
    var bytes: [UInt8]
    /// The code reported at the byte (or at the opening quote for a line break), if any.
    var code: String?
    /// The string ends here (a quote, a line break).
    var endsString = false
  }

  static let stops: [Stop] = [
    Stop(bytes: [0x22], endsString: true),
    Stop(bytes: [0x5C, UInt8(ascii: "n")]),
    Stop(bytes: [0x5C, UInt8(ascii: "q")], code: "invalid-escape"),
    Stop(bytes: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, 0x65, 0x39]),
    Stop(bytes: [0x00], code: "control-character-in-string"),
    Stop(bytes: [0x01], code: "control-character-in-string"),
    Stop(bytes: [0x09], code: "control-character-in-string"),
    Stop(bytes: [0x1F], code: "control-character-in-string"),
    Stop(bytes: [0x0A], code: "unterminated-string", endsString: true),
    Stop(bytes: [0x0D], code: "unterminated-string", endsString: true),
    Stop(bytes: [0x20]), Stop(bytes: [0x21]), Stop(bytes: [0x23]), Stop(bytes: [0x5B]),
    Stop(bytes: [0x5D]), Stop(bytes: [0x7F]),
    Stop(bytes: [0xE6, 0x97, 0xA5]), Stop(bytes: [0xF0, 0x9F, 0x98, 0x80]),
    Stop(bytes: [0xFF], code: "invalid-utf8"), Stop(bytes: [0x80], code: "invalid-utf8"),
    Stop(bytes: [0xE6, 0x97], code: "invalid-utf8"),
    Stop(bytes: [0xED, 0xA0, 0x80], code: "invalid-utf8"),
  ]

  @Test("a string's end, escapes, control bytes and bad UTF-8 are found at every offset")
  func stringStopsAtEveryOffset() {
    for filler in Self.fillers {
      for stop in Self.stops {
        for offset in 0..<(2 * Self.width + 2) {
          for padding in [0, 1, 7, Self.width - 1] {
            let open = padding
            let start = open + 1
            let prefix = Self.fill(offset, with: filler)
            let suffix = Self.fill(Self.width + 3, with: filler)
            let head = [UInt8](repeating: 0x20, count: padding) + [0x22] + prefix + stop.bytes
            let close = head.count + suffix.count
            // The string closed with more after it, and closed at the buffer's very end.
            for after in [Array("}, 1]".utf8), []] {
              let bytes = head + suffix + [0x22] + after
              let scanned = Self.scan(bytes, at: open)
              let at = start + offset
              var expected: [(String, Int)] = []
              if let code = stop.code {
                expected.append((code, code == "unterminated-string" ? open : at))
              }
              let end = stop.endsString ? at : close
              let pos = stop.bytes == [0x22] ? at + 1 : stop.endsString ? at : close + 1
              if scanned.token.end != end || scanned.pos != pos
                || scanned.issues.map(\.code) != expected.map(\.0)
                || scanned.issues.map(\.offset) != expected.map(\.1)
                || scanned.token.escaped != (stop.bytes.first == 0x5C)
              {
                let place = "\(stop.bytes) at \(offset) after \(filler), padding \(padding)"
                let found =
                  "end \(scanned.token.end)/\(end), pos \(scanned.pos)/\(pos), \(scanned.issues)"
                Issue.record("\(place), \(after.count) after: \(found)")
              }
            }
          }
        }
      }
    }
  }

  @Test("a string that ends at the buffer's end, closed or not, is read to its last byte")
  func stringAtBufferEnd() {
    for filler in Self.fillers {
      for length in 0..<(2 * Self.width + 2) {
        for last in [[], [0xC3], [0xE6, 0x97], [0x80], [0x01]] as [[UInt8]] {
          let text = Self.fill(length, with: filler) + last
          let open = Self.scan([0x22] + text, at: 0)
          #expect(open.token.unterminated)
          #expect(open.token.end == text.count + 1)
          #expect(open.pos == text.count + 1)
          // A control byte is reported before the end is found; the fatal end stops the rest.
          #expect(
            open.issues.map(\.code)
              == (last == [0x01] ? ["control-character-in-string"] : []) + ["unterminated-string"])
          let closed = Self.scan([0x22] + text + [0x22], at: 0)
          #expect(!closed.token.unterminated)
          #expect(closed.token.end == text.count + 1)
          #expect(closed.pos == text.count + 2)
          let code = last == [0x01] ? "control-character-in-string" : "invalid-utf8"
          #expect(closed.issues.map(\.code) == (last.isEmpty ? [] : [code]), "\(text)")
          #expect(
            closed.issues.map(\.offset) == (last.isEmpty ? [] : [1 + text.count - last.count]))
        }
      }
    }
  }

  @Test("indentation of every width is skipped and the columns after it are right")
  func indentation() {
    for spaces in 0..<(2 * Self.width + 3) {
      let indent = String(repeating: " ", count: spaces)
      for (json, column) in [
        ("[\n\(indent){\"id\": 1}\n]", spaces + 8), ("[\n\(indent)\t{\"id\": 1}]", spaces + 9),
      ] {
        let report = validate(json)
        let diagnostic = report.first("id-not-string")
        #expect(diagnostic?.line == 2, "\(spaces)")
        #expect(diagnostic?.column == column, "\(spaces)")
      }
      // The document ends in the indentation.
      let cut = validate("[{\"id\": \"1\"},\n\(indent)")
      #expect(cut.first("unexpected-end-of-input")?.line == 2)
      #expect(cut.first("unexpected-end-of-input")?.column == spaces + 1)
    }
  }

  @Test("blank lines, indented or not, in one block or across blocks, are all counted")
  func blankLines() {
    for blank in 0..<(Self.width + 3) {
      for indent in [0, 1, 5, Self.width - 2] {
        for ending in ["\n", "\r\n"] {
          let spaces = String(repeating: " ", count: indent)
          let lines = String(repeating: spaces + ending, count: blank)
          let json = "[{\"id\": \"1\"},\(ending)\(lines)\(spaces){\"id\": 2}]"
          let diagnostic = validate(json).first("id-not-string")
          #expect(diagnostic?.line == blank + 2, "\(blank) blank lines, \(indent), \(ending.count)")
          #expect(diagnostic?.column == indent + 8)
        }
      }
    }
  }

  /// Writes `bytes` to a fresh file and validates it mapped, expecting the array's report.
  static func compareMapped(_ bytes: [UInt8]) throws -> ValidationReport {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("block-scan-\(UUID().uuidString).json")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let descriptor = open(url.path, O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let document = try #require(DocumentBytes(mapping: descriptor))
    let validator = RoadmapValidator()
    let expected = validator.validate(bytes, previous: nil)
    let report = validator.validate(document, previous: nil)
    #expect(report.diagnostics == expected.diagnostics)
    return report
  }

  @Test(
    "a mapped file of whole pages that ends inside a string or indentation is read to its last byte only"
  )
  func mappedFileEnd() throws {
    let page = 4096
    for filler in Self.fillers {
      for last in [[], [0xFF], [0xE6, 0x97], [0x01], [0x5C]] as [[UInt8]] {
        for length in [0, 1, Self.width - 1, Self.width, Self.width + 1, 2 * Self.width + 1] {
          // A padding string first, so that the last string has `length` bytes and then `last`
          // and the file is exactly one page.
          let open = Array("[{\"id\": \"1\", \"note\": \"".utf8)
          let between = Array("\", \"title\": \"".utf8)
          let text = Self.fill(length, with: filler) + last
          let padding = page - open.count - between.count - text.count
          let document = open + [UInt8](repeating: 0x61, count: padding) + between + text
          #expect(document.count == page)
          let report = try Self.compareMapped(document)
          #expect(report.codes.contains("unterminated-string"))
        }
      }
    }
    // Whitespace to the last byte of the page.
    let open = Array("[{\"id\": \"1\"},\n".utf8)
    let report = try Self.compareMapped(open + [UInt8](repeating: 0x20, count: page - open.count))
    #expect(report.first("unexpected-end-of-input")?.line == 2)
  }
}
