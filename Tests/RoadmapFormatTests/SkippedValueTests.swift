import Foundation
import TestProcess
import Testing

@testable import RoadmapFormat

/// Raw control characters (line breaks and NUL included) inside the strings of values the app
/// skips: `JSONDecoder` never looks at those characters, so it loads the file; the compatible
/// reading must too, while the validator still reports them.
@Suite("Control characters in skipped values")
struct SkippedValueTests {
  /// Where a raw byte goes: the text before and after it.
  struct Place: Sendable, CustomTestStringConvertible {
    var name: String
    var before: String
    var after: String
    var testDescription: String { name }

    func bytes(_ byte: UInt8) -> [UInt8] { Array(before.utf8) + [byte] + Array(after.utf8) }
  }

  static let places: [Place] = [
    Place(name: "unknown key's value", before: #"[{"id":"1","x":"a"#, after: #"b"}]"#),
    Place(name: "unknown key", before: #"[{"id":"1","x"#, after: #"y":1}]"#),
    Place(name: "key inside an unknown value", before: #"[{"id":"1","x":{"k"#, after: #"":1}}]"#),
    Place(name: "string in an unknown array", before: #"[{"id":"1","x":["a"#, after: #"b"]}]"#),
    Place(
      name: "localized item's unknown key",
      before: #"[{"id":"1","localizedTitle":[{"language":"en","value":"v","x"#,
      after: #"":1}]}]"#),
    Place(
      name: "localized item's unknown value",
      before: #"[{"id":"1","localizedTitle":[{"language":"en","value":"v","x":""#,
      after: #""}]}]"#),
    Place(
      name: "localized item's language key",
      before: #"[{"id":"1","localizedTitle":[{"language"#, after: #"":"en","value":"v"}]}]"#),
    Place(name: "repeated key's value", before: #"[{"id":"1","id":"a"#, after: #""}]"#),
    Place(name: "first of a repeated key", before: #"[{"id":"a"#, after: #"","id":"1"}]"#),
    Place(name: "title", before: #"[{"id":"1","title":"a"#, after: #"b"}]"#),
    Place(name: "between elements", before: #"[{"id":"1"}"#, after: #"]"#),
    Place(
      name: "two line breaks in one skipped string", before: #"[{"id":"1","x":"a"#,
      after: "\n\n\"},\n{\"id\":\"2\",\"title\":\"b\"}]"),
  ]

  @Test(
    "compatible reading accepts exactly what JSONDecoder accepts, with its fields",
    arguments: places, [0x00, 0x09, 0x0A, 0x0D, 0x1F] as [UInt8])
  func agreesWithJSONDecoder(place: Place, byte: UInt8) {
    expectAgreementWithJSONDecoder(place.bytes(byte))
  }

  @Test("the JSONDecoder cases above do load (the table is not all refusals)")
  func someAreAccepted() {
    let accepted = Self.places.filter { upstreamDecodes($0.bytes(0x0A)) != nil }.map(\.name)
    #expect(
      accepted == [
        "unknown key's value", "key inside an unknown value", "string in an unknown array",
        "localized item's unknown value", "repeated key's value", "between elements",
        "two line breaks in one skipped string",
      ])
    #expect(upstreamDecodes(Self.places[0].bytes(0x00)) != nil)
  }

  @Test("a raw line break in a skipped value is an error the app does not reject, at its place")
  func lineBreakInSkippedValue() throws {
    let json = "[\n  {\"id\": \"1\", \"notes\": \"first line\nsecond line\"},\n  {\"id\": \"2\"}\n]"
    let report = RoadmapValidator().validate(Array(json.utf8))
    let found = report.diagnostics.filter { $0.code == "control-character-in-string" }
    #expect(found.count == 1)
    let diagnostic = try #require(found.first)
    #expect(diagnostic.line == 2)
    #expect(diagnostic.column == 35)
    #expect(diagnostic.message.contains(#"a raw line break (U+000A)"#))
    #expect(diagnostic.message.contains(#"write it as \n"#))
    #expect(diagnostic.message.contains("the app skips this value and still loads the file"))
    #expect(!report.codes.contains("unterminated-string"))
    let document = try RoadmapDocument.read(Array(json.utf8), mode: .compatible)
    #expect(document.features.map(\.id) == ["1", "2"])
    #expect(document.features[0].extra["notes"] == .string("first line\nsecond line"))
  }

  /// Bug: these said "the app rejects the file" (or "JSONDecoder rejects the file") where the
  /// compatible reading, as JSONDecoder, loads it; in a value the app reads they still do.
  @Test("invalid UTF-8 and a lone surrogate in a skipped value say the app loads the file")
  func skippedEncodingProblemsSayTheAppLoadsTheFile() throws {
    let skipped: [(String, [UInt8])] = [
      ("invalid-utf8", Array(#"[{"id":"1","x":"caf"#.utf8) + [0xE9] + Array(#" ok"}]"#.utf8)),
      ("lone-surrogate", Array(#"[{"id":"1","x":"\ud800"}]"#.utf8)),
      ("lone-surrogate", Array(#"[{"id":"1","x":"\udc00"}]"#.utf8)),
    ]
    for (code, bytes) in skipped {
      let diagnostic = try #require(RoadmapValidator().validate(bytes).first(code))
      #expect(diagnostic.message.contains("the app skips this value and still loads the file"))
      #expect(!diagnostic.message.contains("rejects the file"), "\(diagnostic.message)")
      #expect(try RoadmapDocument.read(bytes, mode: .compatible).features.map(\.id) == ["1"])
    }
    let read = Array(#"[{"id":"1","title":"\ud800"}]"#.utf8)
    let diagnostic = try #require(RoadmapValidator().validate(read).first("lone-surrogate"))
    #expect(diagnostic.message.contains("JSONDecoder rejects the file"))
  }

  @Test("a raw carriage return in a skipped value is spelled \\r in the message")
  func carriageReturn() throws {
    let bytes = Array(#"[{"id": "1", "x": "a"#.utf8) + [0x0D] + Array(#"b"}]"#.utf8)
    let report = RoadmapValidator().validate(bytes)
    let diagnostic = try #require(report.first("control-character-in-string"))
    #expect(diagnostic.message.contains(#"write it as \r"#))
  }

  @Test("a skipped string really left open on its line is still an unterminated string")
  func reallyUnterminated() throws {
    let json = """
      [
        {"id": "1", "notes": "oops
        },
        {"id": "2", "title": "Two"},
        {"id": "3", "title": "Three"}
      ]
      """
    let bytes = Array(json.utf8)
    #expect(upstreamDecodes(bytes) == nil)
    let report = RoadmapValidator().validate(bytes)
    let diagnostic = try #require(report.first("unterminated-string"))
    #expect(diagnostic.line == 2)
    #expect(!report.codes.contains("control-character-in-string"))
    #expect(throws: RoadmapReadError.self) { try RoadmapDocument.read(bytes, mode: .compatible) }
    // The lines after it are read as they were meant.
    let lenient = try RoadmapDocument.read(bytes, mode: .lenient)
    #expect(lenient.features.map(\.id).suffix(2) == ["2", "3"])
  }

  @Test("a skipped string open to the end of the file is an unterminated string")
  func openToTheEnd() throws {
    let bytes = Array("[{\"id\": \"1\", \"x\": \"a\nb".utf8)
    #expect(upstreamDecodes(bytes) == nil)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.first("unterminated-string")?.line == 1)
  }

  @Test("many line breaks in one long skipped string are each reported once, in order")
  func manyLineBreaks() throws {
    let text = (0..<500).map { "line \($0)" }.joined(separator: "\n")
    let json = "[{\"id\": \"1\", \"x\": \"\(text)\", \"title\": \"T\"}]"
    let bytes = Array(json.utf8)
    #expect(upstreamDecodes(bytes)?.first?.title == "T")
    let document = try RoadmapDocument.read(bytes, mode: .compatible)
    #expect(document.features.first?.title == "T")
    #expect(document.features.first?.extra["x"] == .string(text))
    let outcome = bytes.withUnsafeBufferPointer { ParseOutcome.parse($0, collectWarnings: true) }
    let lines = outcome.issues.filter { $0.code == "control-character-in-string" }
    #expect(lines.count + (outcome.suppressed["control-character-in-string"]?.count ?? 0) == 499)
    #expect(lines.map(\.offset) == lines.map(\.offset).sorted())
  }

  @Test("more raw control characters in skipped values than the syntax error limit still load")
  func moreThanTheLimit() throws {
    let value = String(repeating: "a\tb\u{1F}c", count: RoadmapParser.maxSyntaxErrors)
    let bytes = Array("[{\"id\": \"1\", \"x\": \"\(value)\"}, {\"id\": \"2\"}]".utf8)
    #expect(upstreamDecodes(bytes)?.count == 2)
    let document = try RoadmapDocument.read(bytes, mode: .compatible)
    #expect(document.features.map(\.id) == ["1", "2"])
    let report = RoadmapValidator().validate(bytes)
    #expect(!report.codes.contains("too-many-errors"))
    #expect(report.codes.filter { $0 == "control-character-in-string" }.count == 200)
  }

  @Test("a NUL byte in a skipped value early in the file is not taken for a binary file")
  func earlyNUL() throws {
    let bytes = Array(#"[{"id": "1", "x": "a"#.utf8) + [0x00] + Array(#""}]"#.utf8)
    let report = RoadmapValidator().validate(bytes)
    #expect(!report.codes.contains("not-text"))
    let diagnostic = try #require(report.first("control-character-in-string"))
    #expect(diagnostic.column == 21)
    #expect(diagnostic.message.contains(#"\u0000"#))
    #expect(try RoadmapDocument.read(bytes, mode: .compatible).features.map(\.id) == ["1"])
  }

  @Test("a NUL between values is an unexpected character, and the app rejects it")
  func nulOutsideStrings() throws {
    let bytes = Array(#"[{"id": "1"},"#.utf8) + [0x00] + Array(#"{"id": "2"}]"#.utf8)
    #expect(upstreamDecodes(bytes) == nil)
    let report = RoadmapValidator().validate(bytes)
    let diagnostic = try #require(report.first("unexpected-character"))
    #expect(diagnostic.message.contains("control character 0x0"))
    #expect(throws: RoadmapReadError.self) { try RoadmapDocument.read(bytes, mode: .compatible) }
  }

  @Test("a candidate split point inside a multi-line skipped string gives the one-pass result")
  func splitInsideSkippedString() throws {
    // Each feature's notes look like the next element: a line ending in "}," then "  {" at the
    // first element's indentation; the other elements are indented deeper, so only the notes
    // offer a split.
    var json = "[\n"
    for index in 0..<200 {
      let indent = index == 0 ? "  " : "    "
      json += indent + "{\"id\": \"\(index)\", \"notes\": \"before\n  },\n  {fake\"},\n"
    }
    json += "    {\"id\": \"last\"}\n]"
    let bytes = Array(json.utf8)
    #expect(upstreamDecodes(bytes)?.count == 201)
    let split = try #require(bytes.withUnsafeBufferPointer { ParseOutcome.splitPoint(in: $0) })
    let single = bytes.withUnsafeBufferPointer {
      ParseOutcome.parse($0, collectWarnings: true, parallelThreshold: .max)
    }
    // The candidate found is inside a string, not an element.
    #expect(!single.records.contains { $0.offset == split.element })
    ParallelParseTests.compare(bytes)
    let document = try RoadmapDocument.read(bytes, mode: .compatible)
    #expect(document.features.count == 201)
  }
}

/// JSONDecoder's nesting limit (512 levels, the top-level array counted) in a skipped value.
@Suite("Nesting limit in skipped values")
struct SkippedNestingTests {
  @Test(
    "compatible reading accepts the depths JSONDecoder accepts",
    arguments: [509, 510, 511, 512, 600], [true, false])
  func agreesWithJSONDecoder(depth: Int, arrays: Bool) {
    let json =
      arrays
      ? #"[{"id":"1","x":"# + String(repeating: "[", count: depth)
        + String(repeating: "]", count: depth) + "}]"
      : #"[{"id":"1","x":"# + String(repeating: #"{"a":"#, count: depth) + "1"
        + String(repeating: "}", count: depth) + "}]"
    expectAgreementWithJSONDecoder(Array(json.utf8))
  }
}

/// `\u` without four hex digits in a skipped value: JSONDecoder takes the next four bytes as
/// the escape whatever they are, so a quote among them does not end the string.
@Suite("Short \\u escapes in skipped values")
struct SkippedEscapeTests {
  @Test(
    "compatible reading accepts exactly what JSONDecoder accepts",
    arguments: [
      #"[{"id":"","":[{"\u":""}]}]"#, #"[{"id":"","x":"\u"}]"#, #"[{"id":"","x":"\u12"}]"#,
      #"[{"id":"","x":"\uzzzz"}]"#, #"[{"id":"","x":{"\u":1}}]"#,
      #"[{"id":"","x":{"\uzzzz":1}}]"#, #"[{"id":"","x":["\u"]}]"#,
      #"[{"id":"","x":[{"a":"\u"}]}]"#, #"[{"id":"","x":[{"\u12":""}]}]"#,
      #"[{"id":"","x":[{"\uzzzz":""}]}]"#, #"[{"id":"","x":[{"k":"","\u":""}]}]"#,
      #"[{"id":"","x":{"y":{"\u":""}}}]"#, #"[{"id":"","x":"\u12\"","title":"T"}]"#,
      #"[{"id":"","x":"\ud800\uzz\"","title":"T"}]"#, #"[{"id":"","title":"\u"}]"#,
      #"[{"id":"","x":"\u12\"}]"#, #"[{"id":"","x":"\uzz\\","title":"T"}]"#,
      #"[{"id":"","x":"\u\\\\\\\\","title":"T"}]"#, #"[{"id":"","x":"\uzzz\\","title":"T"}]"#,
      #"[{"id":"","x":"\u\\zzz","title":"T"}]"#, #"[{"id":"","x":"\u123","title":"T"}]"#,
      #"[{"id":"","x":1.2.3}]"#, #"[{"id":"","x":1e}]"#, #"[{"id":"","x":1-2}]"#,
      #"[{"id":"","x":-}]"#, #"[{"id":"","x":1+}]"#, #"[{"id":"","x":--1}]"#,
      #"[{"id":"","x":[1.e5,2E+-3]}]"#, #"[{"id":"","x":{"a":0e}}]"#,
      "[{\"id\":\"\",\"x\":\"a\n\\uzzz\\\",\"title\":\"T\"}]",
      "[{\"id\":\"\",\"x\":\"a\n\\uz\\zz\",\"title\":\"T\"}]",
    ])
  func agreesWithJSONDecoder(json: String) {
    expectAgreementWithJSONDecoder(Array(json.utf8))
  }

  @Test("the escape is still reported, as an error the app does not reject")
  func reported() throws {
    let report = validate(#"[{"id": "1", "x": "\uzzzz"}]"#)
    let diagnostic = try #require(report.first("invalid-escape"))
    #expect(diagnostic.column == 20)
    let document = try RoadmapDocument.read(
      Array(#"[{"id": "1", "x": "\uzzzz"}]"#.utf8), mode: .compatible)
    #expect(document.features.map(\.id) == ["1"])
  }
}

/// A raw line break read as part of a skipped string still starts a line of the file, so the
/// positions after it (counted from the parser's checkpoints) are where a plain count puts them.
@Suite("Lines after multi-line skipped strings")
struct SkippedLineTests {
  static let json =
    "[\n  {\"id\": \"1\", \"notes\": \"one\ntwo\nthree\"},\n"
    + "  {\"id\": \"2\", \"x\": \"\\uz\nzz\"},\n  {\"id\": \"3\", \"votes\": -1}\n]"

  @Test("a diagnostic after them is at its line")
  func lineAfter() throws {
    let report = validate(Self.json)
    let negative = try #require(report.first("negative-votes"))
    #expect(negative.line == 7)
    let escape = try #require(report.first("invalid-escape"))
    #expect(escape.line == 5)
  }

  @Test("the checkpoints give the positions a plain count gives")
  func checkpointsAgree() {
    let bytes = Array(Self.json.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      let outcome = ParseOutcome.parse(buffer, collectWarnings: true)
      #expect(!outcome.checkpoints.isEmpty)
      let fast = ParseOutcome.diagnostics(
        outcome.issues, suppressed: outcome.suppressed, in: buffer,
        checkpoints: outcome.checkpoints)
      let counted = ParseOutcome.diagnostics(
        outcome.issues, suppressed: outcome.suppressed, in: buffer, checkpoints: [])
      #expect(fast == counted)
    }
  }
}
