import RoadmapFormat
import TestProcess
import Testing

/// Every syntax problem, with its exact line and column (1-based, columns in Unicode scalars).
@Suite("Syntax diagnostics")
struct SyntaxDiagnosticsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var input: [UInt8]
    var code: String
    var line: Int
    var column: Int
    var severity: Severity = .error
    var testDescription: String { name }

    init(
      _ name: String, _ input: String, _ code: String, _ line: Int, _ column: Int,
      severity: Severity = .error
    ) {
      self.init(name, Array(input.utf8), code, line, column, severity: severity)
    }

    init(
      _ name: String, _ input: [UInt8], _ code: String, _ line: Int, _ column: Int,
      severity: Severity = .error
    ) {
      self.name = name
      self.input = input
      self.code = code
      self.line = line
      self.column = column
      self.severity = severity
    }
  }

  static let cases: [Case] = [
    Case("trailing comma in the array", #"[{"id": "1"},]"#, "trailing-comma", 1, 13),
    Case(
      "trailing comma in an object", "[\n  {\n    \"id\": \"1\",\n  }\n]", "trailing-comma", 3,
      14),
    Case(
      "missing comma between features", "[\n  {\"id\": \"1\"}\n  {\"id\": \"2\"}\n]",
      "missing-comma", 2, 14),
    Case(
      "missing comma between keys", "[{\"id\": \"1\"\n \"title\": \"x\"}]", "missing-comma", 1,
      12),
    Case("line comment", "[\n  // note\n  {\"id\": \"1\"}\n]", "comment", 2, 3),
    Case("block comment", #"[ /* x */ {"id": "1"}]"#, "comment", 1, 3),
    Case("unclosed block comment", "[ /* x ", "comment", 1, 3),
    Case("string not closed before the end", #"[{"id": "1}]"#, "unterminated-string", 1, 9),
    Case(
      "string not closed on its line", "[{\"id\": \"1,\n\"title\": \"x\"}]",
      "unterminated-string", 1, 9),
    Case("bad escape", #"[{"id": "a\qb"}]"#, "invalid-escape", 1, 11),
    Case("short unicode escape", #"[{"id": "a\u12"}]"#, "invalid-escape", 1, 11),
    Case("lone high surrogate", #"[{"id": "\ud800"}]"#, "lone-surrogate", 1, 10),
    Case("lone low surrogate", #"[{"id": "x\udc00"}]"#, "lone-surrogate", 1, 11),
    Case(
      "invalid UTF-8", Array(#"[{"id": ""#.utf8) + [0xFF] + Array(#""}]"#.utf8), "invalid-utf8", 1,
      10),
    Case(
      "overlong UTF-8", Array(#"[{"id": "ab"#.utf8) + [0xC0, 0xAF] + Array(#""}]"#.utf8),
      "invalid-utf8", 1, 12),
    Case("raw tab in a string", "[{\"id\": \"a\tb\"}]", "control-character-in-string", 1, 11),
    Case("NaN", #"[{"id": "1", "votes": NaN}]"#, "non-finite-number", 1, 23),
    Case("-Infinity", #"[{"id": "1", "votes": -Infinity}]"#, "non-finite-number", 1, 23),
    Case(
      "votes beyond Int", #"[{"id": "1", "votes": 9223372036854775808}]"#,
      "number-out-of-range", 1, 23),
    Case("leading zero", #"[{"id": "1", "votes": 01}]"#, "invalid-number", 1, 23),
    Case("bare fraction", #"[{"id": "1", "votes": 1.}]"#, "invalid-number", 1, 23),
    Case("plus sign", #"[{"id": "1", "votes": +1}]"#, "invalid-number", 1, 23),
    Case("empty file", "", "empty-document", 1, 1),
    Case("only whitespace", "  \n  ", "empty-document", 1, 1),
    Case(
      "byte-order mark", [0xEF, 0xBB, 0xBF] + Array("[]".utf8), "byte-order-mark", 1, 1,
      severity: .warning),
    // The mark takes no column (editors and GitHub's annotations do not show it): 8, not 9.
    Case(
      "after a byte-order mark", [0xEF, 0xBB, 0xBF] + Array(#"[{"id":1}]"#.utf8), "id-not-string",
      1, 8),
    Case(
      "on the second line after a byte-order mark",
      [0xEF, 0xBB, 0xBF] + Array("[\n{\"id\":1}]".utf8), "id-not-string", 2, 7),
    Case("UTF-16", [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], "invalid-encoding", 1, 1),
    Case("PNG image", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00], "not-text", 1, 1),
    Case(
      "NUL byte in a string", Array(#"[{"id": "a"#.utf8) + [0x00] + Array(#""}]"#.utf8),
      "control-character-in-string", 1, 11),
    Case("NUL byte that makes it look like UTF-16", [0x5B, 0x00, 0x00, 0x5D], "not-text", 1, 1),
    Case("UTF-16 without BOM", [0x5B, 0x00, 0x5D, 0x00], "invalid-encoding", 1, 1),
    Case("control byte first", [0x1B] + Array("[]".utf8), "not-text", 1, 1),
    Case("invalid UTF-8 first", [0xC3, 0x28] + Array("[]".utf8), "not-text", 1, 1),
    Case("garbage after the array", "[] x", "trailing-content", 1, 4),
    Case("second document", "[]\n[]", "trailing-content", 2, 1),
    Case("single quotes", #"[{'id': "1"}]"#, "single-quoted-string", 1, 3),
    Case("unquoted key", #"[{id: "1"}]"#, "unquoted-key", 1, 3),
    Case("capitalized literal", #"[{"id": "1", "isFinished": True}]"#, "invalid-literal", 1, 28),
    Case("missing colon", #"[{"id" "1"}]"#, "missing-colon", 1, 8),
    Case("file cut short", #"[{"id": "1"}"#, "unexpected-end-of-input", 1, 13),
    Case("wrong closing bracket", #"[{"id": "1"]"#, "mismatched-bracket", 1, 12),
    Case("two commas", #"[{"id": "1"},,{"id": "2"}]"#, "unexpected-character", 1, 14),
    Case("stray character", #"[{"id": "1"} # ]"#, "unexpected-character", 1, 14),
    Case("too deep", String(repeating: "[", count: 600), "nesting-too-deep", 1, 513),
    Case("columns count scalars", #"[{"id": "ü👍🏽", "votes": "x"}]"#, "wrong-type", 1, 25),
  ]

  @Test("reports the problem at its exact line and column", arguments: cases)
  func reportsAtPosition(_ item: Case) throws {
    let report = RoadmapValidator().validate(item.input)
    let diagnostic = try #require(report.first(item.code), "codes: \(report.codes)")
    #expect(diagnostic.line == item.line)
    #expect(diagnostic.column == item.column)
    #expect(diagnostic.severity == item.severity)
    #expect(!diagnostic.message.isEmpty)
  }

  /// Bug: a file of spaces and line breaks was called empty, which its size contradicts.
  @Test("a file of only whitespace is not called empty")
  func onlyWhitespaceIsSaidSo() throws {
    let blank = try #require(validate("  \n  ").first("empty-document"))
    #expect(blank.message.hasPrefix("the file holds only whitespace;"), "\(blank.message)")
    let empty = try #require(validate("").first("empty-document"))
    #expect(empty.message.hasPrefix("the file is empty;"), "\(empty.message)")
    let mark = try #require(validate("\u{FEFF}").first("empty-document"))
    #expect(mark.message.hasPrefix("the file is empty;"), "\(mark.message)")
  }

  @Test("recovers to report several problems in one pass")
  func recoversAndReportsSeveral() {
    let json = """
      [
        {"id": "1", "title": "a",},
        {"id": "2" "title": "b"},
        // a comment
        {"id": "3", "title": "c\\q"},
      ]
      """
    let report = validate(json)
    #expect(
      report.codes == [
        "trailing-comma", "missing-comma", "comment", "invalid-escape", "trailing-comma",
      ])
    #expect(report.diagnostics.map(\.line) == [2, 3, 4, 5, 5])
    #expect(report.featureCount == 3)
  }

  @Test("an unterminated string does not also report the comma it swallowed")
  func unterminatedStringReportsOnce() {
    let report = validate("[{\"id\": \"1\", \"title\": \"x,\n\"status\": \"y\"}]")
    #expect(report.codes == ["unterminated-string"])
  }

  @Test("the pointer of a syntax error names the value it is in")
  func syntaxErrorPointer() throws {
    let report = validate(#"[{"id": "1"}, {"id": "2", "title": "a\qb"}]"#)
    let diagnostic = try #require(report.first("invalid-escape"))
    #expect(diagnostic.path == "/1/title")
  }

  @Test("stops after too many errors instead of reporting without end")
  func stopsAfterTooManyErrors() {
    let json = "[" + (1...500).map { #"{"id": "\#($0)", "title": "a\qb"},"# }.joined() + "]"
    let report = validate(json)
    #expect(report.first("too-many-errors") != nil)
    #expect(report.diagnostics.count <= 102)
  }

  @Test("a raw control character in a value the app reads does not say the app loads the file")
  func controlCharacterInReadValue() throws {
    let diagnostic = try #require(
      validate("[{\"id\": \"a\tb\"}]").first("control-character-in-string"))
    #expect(diagnostic.message.hasPrefix("a raw control character (U+0009)"))
    #expect(!diagnostic.message.contains("still loads"))
  }

  @Test("errors the app does not reject (trailing commas) do not stop the reading")
  func acceptedErrorsDoNotStop() throws {
    let json = "[" + (1...500).map { #"{"id": "\#($0)",}"# }.joined(separator: ",") + ",]"
    let bytes = Array(json.utf8)
    #expect(upstreamDecodes(bytes)?.count == 500)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.first("too-many-errors") == nil)
    #expect(report.codes.filter { $0 == "trailing-comma" }.count == 501)
    let document = try RoadmapDocument.read(bytes, mode: .compatible)
    #expect(document.features.count == 500)
  }

  @Test("CRLF line endings count as one line break")
  func crlfLines() throws {
    let report = validate("[\r\n  {\"id\": \"1\"},\r\n]")
    let diagnostic = try #require(report.first("trailing-comma"))
    #expect(diagnostic.line == 2)
    #expect(diagnostic.column == 14)
  }
}
