import Foundation
import RoadmapFormat
import Testing

/// The one JSON string escaper (`JSONString`) every writer of the package uses.
@Suite("JSON string escaping")
struct JSONStringTests {
  /// Reads a literal back with Foundation's decoder (a JSON text that is a single string).
  static func decode(_ literal: String) throws -> String {
    try JSONDecoder().decode(String.self, from: Data(literal.utf8))
  }

  static let exact: [(text: String, literal: String)] = [
    ("", #""""#),
    ("plain", #""plain""#),
    ("say \"hi\"", #""say \"hi\"""#),
    ("back\\slash", #""back\\slash""#),
    ("a/b", #""a/b""#),
    ("\u{8}\u{9}\u{A}\u{C}\u{D}", #""\b\t\n\f\r""#),
    ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
    ("\u{7F}", "\"\u{7F}\""),
    ("line\u{2028}para\u{2029}end", #""line\u2028para\u2029end""#),
    ("ü é 中文 🚀", "\"ü é 中文 🚀\""),
    // Neighbours of U+2028/2029 in UTF-8 (E2 80 A7, E2 80 AA) are not escaped.
    ("\u{2027}\u{202A}", "\"\u{2027}\u{202A}\""),
    ("\u{2028}", #""\u2028""#),
    ("x\u{2029}", #""x\u2029""#),
  ]

  @Test("each class of character is written as documented", arguments: exact)
  func exactLiterals(_ text: String, literal: String) throws {
    #expect(JSONString.quoted(text) == literal)
    var bytes: [UInt8] = [0x5B]
    JSONString.appendQuoted(text, to: &bytes)
    #expect(bytes == [0x5B] + Array(literal.utf8))
    #expect(try Self.decode(literal) == text)
  }

  @Test("U+2028 and U+2029 never appear raw, so the text is also valid JavaScript")
  func lineSeparatorsAreEscaped() throws {
    let text = String(repeating: "a\u{2028}b\u{2029}", count: 100)
    let literal = JSONString.quoted(text)
    #expect(!literal.unicodeScalars.contains("\u{2028}"))
    #expect(!literal.unicodeScalars.contains("\u{2029}"))
    #expect(literal.components(separatedBy: "\\u2028").count == 101)
    #expect(try Self.decode(literal) == text)
  }

  @Test("every scalar below U+0800 and a spread above round-trips through JSONDecoder")
  func roundTripsEveryBMPNeighbourhood() throws {
    var scalars: [Unicode.Scalar] = []
    for value in 0..<0x800 { scalars.append(Unicode.Scalar(UInt32(value))!) }
    for value in stride(from: 0x800, to: 0x110000, by: 97)
    where !(0xD800...0xDFFF).contains(value) {
      scalars.append(Unicode.Scalar(UInt32(value))!)
    }
    scalars += ["\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}"]
    let text = String(String.UnicodeScalarView(scalars))
    #expect(try Self.decode(JSONString.quoted(text)) == text)
    for scalar in scalars {
      let one = String(Character(scalar))
      #expect(
        try Self.decode(JSONString.quoted(one)) == one, "U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test("random strings round-trip (fixed seed, so a failure repeats)")
  func randomStringsRoundTrip() throws {
    var generator = SplitMix64(seed: 0x5EED_2028)
    let alphabet: [Unicode.Scalar] = [
      "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{2028}", "\u{2029}",
      "a", "Z", " ", "é", "中", "🚀", "\u{301}", "\u{E2}", "\u{80}",
    ]
    for _ in 0..<500 {
      let length = Int(generator.next() % 40)
      var scalars = String.UnicodeScalarView()
      for _ in 0..<length {
        scalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
      }
      let text = String(scalars)
      #expect(try Self.decode(JSONString.quoted(text)) == text)
    }
  }

  @Test("the canonical writer uses it: a title with U+2028 reads back equal")
  func writerUsesTheSharedEscaper() throws {
    let feature = RoadmapFeature(
      id: "1", title: "Dark\u{2028}mode \"beta\"", status: "planned\u{8}")
    let text = String(decoding: RoadmapWriter.write([feature], style: .compact), as: UTF8.self)
    #expect(text.contains(#""title":"Dark\u2028mode \"beta\"""#))
    #expect(text.contains(#""status":"planned\b""#))
    let read = try RoadmapDocument.read(Array(text.utf8), mode: .lenient)
    #expect(read.features.first?.title == feature.title)
    #expect(read.features.first?.status == feature.status)
  }
}
