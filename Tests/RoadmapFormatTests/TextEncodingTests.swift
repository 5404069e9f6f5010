import Foundation
import TestProcess
import Testing

@testable import RoadmapFormat

/// UTF-16 and UTF-32 documents, which the Roadmap package's JSONDecoder reads (it converts them
/// to UTF-8 first): read as it reads them, and reported by the validator as an error (a warning
/// when it judges as the app reads, `--compatible`) with every other rule still run on the text.
@Suite struct TextEncodingTests {
  /// A document with one problem (a wrong type on line 3).
  static let text = """
    [
      {"id": "1", "title": "Dark mode é🚀", "status": "planned"},
      {"id": "2", "votes": "3"}
    ]

    """
  /// A document the app reads.
  static let valid = """
    [
      {"id": "1", "title": "Dark mode é🚀"},
      {"id": "2", "votes": 3}
    ]

    """

  static func utf16(_ text: String, little: Bool, mark: Bool) -> [UInt8] {
    let units = (mark ? [UInt16(0xFEFF)] : []) + Array(text.utf16)
    return units.flatMap { unit -> [UInt8] in
      let bytes = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      return little ? bytes : bytes.reversed()
    }
  }

  static func utf32(_ text: String, little: Bool, mark: Bool) -> [UInt8] {
    let scalars = (mark ? [UInt32(0xFEFF)] : []) + text.unicodeScalars.map(\.value)
    return scalars.flatMap { value -> [UInt8] in
      let bytes = (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
      return little ? bytes : bytes.reversed()
    }
  }

  /// Every encoding JSONDecoder tells apart, with and without a byte-order mark (but UTF-32
  /// little-endian's mark, which JSONDecoder takes for UTF-16's and rejects).
  static func encodings(_ text: String) -> [(name: String, bytes: [UInt8], mark: Bool)] {
    [
      ("UTF-16 (little-endian)", utf16(text, little: true, mark: true), true),
      ("UTF-16 (little-endian)", utf16(text, little: true, mark: false), false),
      ("UTF-16 (big-endian)", utf16(text, little: false, mark: true), true),
      ("UTF-16 (big-endian)", utf16(text, little: false, mark: false), false),
      ("UTF-32 (little-endian)", utf32(text, little: true, mark: false), false),
      ("UTF-32 (big-endian)", utf32(text, little: false, mark: true), true),
      ("UTF-32 (big-endian)", utf32(text, little: false, mark: false), false),
    ]
  }

  @Test("the compatible reading reads every encoding as JSONDecoder does")
  func readsAsJSONDecoder() throws {
    let expected = try RoadmapDocument.read(Array(Self.valid.utf8), mode: .compatible).features
    for (name, bytes, mark) in Self.encodings(Self.valid) {
      let upstream = try #require(upstreamDecodes(bytes), "JSONDecoder rejects \(name)")
      let document = try RoadmapDocument.read(bytes, mode: .compatible)
      #expect(document.features == expected, "\(name)")
      #expect(upstream.map(\.id) == ["1", "2"] && upstream.map(\.title) == expected.map(\.title))
      let first = try #require(document.diagnostics.first)
      #expect(first.code == "invalid-encoding" && first.line == 1 && first.column == 1)
      #expect(first.message.hasPrefix("the file is \(name)"))
      #expect(first.message.contains("without a byte-order mark") == !mark)
      #expect(RoadmapDocument.convertedText(of: bytes) == Array(Self.valid.utf8))
    }
  }

  @Test("the validator reports the encoding, then every other problem where it is in the text")
  func validatesTheText() throws {
    let utf8 = RoadmapValidator().validate(Array(Self.text.utf8))
    #expect(utf8.codes == ["wrong-type"])
    for (name, bytes, _) in Self.encodings(Self.text) {
      for report in [
        RoadmapValidator().validate(bytes), RoadmapValidator().validate(Data(bytes)),
        RoadmapValidator().validate(DocumentBytes(bytes)),
      ] {
        #expect(report.codes == ["invalid-encoding"] + utf8.codes, "\(name)")
        #expect(Array(report.diagnostics.dropFirst()) == utf8.diagnostics)
        #expect(report.featureCount == 2)
        #expect(report.features == utf8.features)
        #expect(report.convertedText == Array(Self.text.utf8))
      }
    }
    #expect(utf8.convertedText == nil)
  }

  @Test("judged as the app reads (compatible), an encoding it converts is a warning")
  func compatibleWarns() throws {
    let compatible = RoadmapValidator(options: ValidationOptions(compatible: true))
    for (name, bytes, _) in Self.encodings(Self.valid) {
      let report = compatible.validate(bytes)
      #expect(report.codes == ["invalid-encoding"], "\(name)")
      #expect(report.diagnostics.first?.severity == .warning, "\(name)")
      #expect(!report.hasErrors && report.features.count == 2, "\(name)")
      // Read leniently, it stays an error: JSON must be UTF-8.
      #expect(RoadmapValidator().validate(bytes).diagnostics.first?.severity == .error)
    }
    let misread = compatible.validate(Self.utf32(Self.valid, little: true, mark: true))
    #expect(misread.hasErrors && misread.featureCount == 0)
  }

  @Test("a previous version in UTF-16 is compared as its text")
  func previousInUTF16() {
    let previous = Self.utf16(#"[{"id": "1"}, {"id": "9"}]"#, little: true, mark: true)
    let report = RoadmapValidator().validate(Array(#"[{"id": "1"}]"#.utf8), previous: previous)
    #expect(report.codes == ["removed-id"])
  }

  @Test("what does not convert is rejected, as JSONDecoder rejects it")
  func whatDoesNotConvert() {
    let prefix = Self.utf16(#"[{"id": ""#, little: true, mark: true)
    let suffix = Self.utf16(#""}]"#, little: true, mark: false)
    let loneSurrogate = prefix + [0x00, 0xD8] + suffix
    let pastUnicode =
      Self.utf32(#"[{"id": ""#, little: false, mark: false) + [0, 0x11, 0, 0]
      + Self.utf32(#""}]"#, little: false, mark: false)
    for bytes in [loneSurrogate, pastUnicode] {
      #expect(upstreamDecodes(bytes) == nil)
      #expect(throws: RoadmapReadError.self) { try RoadmapDocument.read(bytes, mode: .compatible) }
      #expect(RoadmapValidator().validate(bytes).hasErrors)
    }
  }

  /// Bug: such a file was "UTF-16; must be UTF-8" (an error where a file that converts is a
  /// warning, with no word of why), or without a mark "not a text file … the byte 0x0": now
  /// its one diagnostic names the encoding and the line and column of what does not convert.
  @Test("what does not convert is named, with its line and column")
  func whatDoesNotConvertIsNamed() throws {
    let head = "[\n  {\"id\": \"1\", \"title\": \""
    let tail = "\"}\n]"
    let cases: [(bytes: [UInt8], says: String)] = [
      (
        Self.utf16(head, little: true, mark: true) + [0x00, 0xD8]
          + Self.utf16(tail, little: true, mark: false),
        "the file is UTF-16 (little-endian), which the app's JSONDecoder converts, but this one "
          + "does not convert: at line 2, column 25 there is an unpaired surrogate (0xD800)"
      ),
      (
        Self.utf16(head, little: false, mark: false) + [0xDC, 0x00]
          + Self.utf16(tail, little: false, mark: false),
        "the file is UTF-16 (big-endian) without a byte-order mark, which the app's JSONDecoder "
          + "converts, but this one does not convert: at line 2, column 25 there is an unpaired "
          + "surrogate (0xDC00)"
      ),
      (
        Self.utf32(head, little: false, mark: true) + [0, 0x11, 0, 0]
          + Self.utf32(tail, little: false, mark: false),
        "the file is UTF-32 (big-endian), which the app's JSONDecoder converts, but this one "
          + "does not convert: at line 2, column 25 there is 0x110000, which is no Unicode "
          + "character"
      ),
    ]
    for (bytes, says) in cases {
      #expect(upstreamDecodes(bytes) == nil)
      let report = RoadmapValidator(options: ValidationOptions(compatible: true)).validate(bytes)
      #expect(report.codes == ["invalid-encoding"])
      let diagnostic = try #require(report.diagnostics.first)
      #expect(diagnostic.severity == .error)
      #expect(diagnostic.message.hasPrefix(says), "\(diagnostic.message)")
      #expect(report.featureCount == 0)
      let error = #expect(throws: RoadmapReadError.self) {
        try RoadmapDocument.read(bytes, mode: .compatible)
      }
      #expect(error?.diagnostic.code == "invalid-encoding")
    }
  }

  @Test("UTF-32 little-endian with its mark is rejected, as JSONDecoder rejects it, and named")
  func utf32LittleEndianMark() throws {
    // FF FE 00 00: JSONDecoder takes UTF-16's mark and U+0000. Converted once, that text is
    // not JSON (converted again, as UTF-16 without a mark, it was: the reader took the file).
    let bytes = Self.utf32(Self.valid, little: true, mark: true)
    #expect(upstreamDecodes(bytes) == nil)
    #expect(throws: RoadmapReadError.self) { try RoadmapDocument.read(bytes, mode: .compatible) }
    let report = RoadmapValidator().validate(bytes)
    #expect(report.hasErrors)
    #expect(report.featureCount == 0)
    let first = try #require(report.diagnostics.first)
    #expect(first.code == "invalid-encoding")
    #expect(
      first.message.hasPrefix(
        "the file is UTF-32 (little-endian), whose byte-order mark the app's JSONDecoder takes "
          + "for UTF-16's"))
    // Its one problem: not also "not a text file … the byte 0x0", which it does not start
    // with (it starts FF FE 00 00).
    #expect(report.diagnostics.map(\.code) == ["invalid-encoding"])
  }

  @Test("an incomplete last code unit is dropped, as JSONDecoder drops it")
  func incompleteLastUnit() throws {
    for bytes in [
      Self.utf16(#"[{"id": "1"}]"#, little: true, mark: false) + [0x41],
      Self.utf32(#"[{"id": "1"}]"#, little: false, mark: false) + [0, 0, 0],
    ] {
      #expect(upstreamDecodes(bytes)?.map(\.id) == ["1"])
      #expect(try RoadmapDocument.read(bytes, mode: .compatible).features.map(\.id) == ["1"])
    }
  }

  @Test("UTF-8 text is not taken for another encoding")
  func utf8StaysUTF8() {
    for text in ["[]", "[{\"id\": \"1\"}]", "\u{FEFF}[]", "  []", "[\"é\"]"] {
      #expect(RoadmapDocument.convertedText(of: Array(text.utf8)) == nil, "\(text)")
    }
  }
}
