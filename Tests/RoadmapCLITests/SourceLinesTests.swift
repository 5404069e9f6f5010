import Foundation
import RoadmapFormat
import Testing

@testable import RoadmapCLI

/// Excerpts found from the reader's known lines are the excerpts found by counting every line.
@Suite struct SourceLinesTests {
  /// A roadmap with a problem in every fifth feature, CRLF line ends in part, and non-ASCII text.
  static func document() -> [UInt8] {
    var text = "[\n"
    for index in 0..<400 {
      let id = index % 5 == 0 ? "\(index)" : "\"\(index)\""
      let end = index % 3 == 0 ? "\r\n" : "\n"
      text += "  {\(end)    \"id\": \(id),\(end)    \"title\": \"Fünf \(index) 日本\""
      text += index == 399 ? "\n  }\n" : "\n  },\n"
    }
    return Array((text + "]\n").utf8)
  }

  @Test func knownLinesGiveTheSameExcerptsAsCountingFromTheStart() throws {
    let bytes = Self.document()
    let report = RoadmapValidator().validate(bytes)
    #expect(report.knownLines.count == 400)
    #expect(report.diagnostics.count >= 80)
    let lineCount = bytes.count { $0 == 0x0A } + 1
    var counted = SourceLines(bytes)
    var known = SourceLines(DocumentBytes(bytes), knownLines: report.knownLines)
    // In order, as the formatter asks, then a few going back.
    for line in Array(1...lineCount + 1) + [7, 3, 900, 2, 1] {
      for column in [1, 5, 12] {
        let expected = counted.excerpt(line: line, column: column)
        let found = known.excerpt(line: line, column: column)
        #expect(found?.source == expected?.source, "line \(line)")
        #expect(found?.caret == expected?.caret, "line \(line)")
      }
    }
  }

  @Test func humanOutputIsTheSameWithAndWithoutKnownLines() {
    let bytes = Self.document()
    let report = RoadmapValidator().validate(bytes)
    let plain = ValidatedFile(
      displayPath: "r.json", bytes: bytes, diagnostics: report.diagnostics,
      featureCount: report.featureCount, isValid: false)
    let withLines = ValidatedFile(
      displayPath: "r.json", document: DocumentBytes(bytes), knownLines: report.knownLines,
      diagnostics: report.diagnostics, featureCount: report.featureCount, isValid: false)
    let output = HumanFormatter.render([withLines])
    #expect(output == HumanFormatter.render([plain]))
    #expect(output.contains("    \"id\": 5,\n"))
  }

  /// Old Mac OS files end lines with a lone CR: every diagnostic, excerpt and annotation names
  /// the line and column it has with LF or CRLF line ends (they all said line 1, with columns
  /// in the hundreds, and the excerpt was the whole file).
  @Test func loneCarriageReturnsEndLinesInEveryOutput() {
    let lines = [
      "[", "  {\"id\": \"1\", \"title\": \"Ünï\"},", "  {\"id\": 2, \"title\": \"B\"},",
      "  {\"id\": \"3\", \"isFinished\": \"yes\"}", "]", "",
    ]
    func outputs(_ separator: String) -> [String] {
      let bytes = Array(lines.joined(separator: separator).utf8)
      let report = RoadmapValidator().validate(bytes)
      let file = ValidatedFile(
        displayPath: "r.json", document: DocumentBytes(bytes), knownLines: report.knownLines,
        diagnostics: report.diagnostics, featureCount: report.featureCount, isValid: false)
      return [HumanFormatter.render([file]), GitHubFormatter.render([file])]
    }
    let expected = outputs("\n")
    #expect(expected[0].contains("r.json:3:10: error:"))
    #expect(expected[0].contains("\n      {\"id\": 2, \"title\": \"B\"},\n             ^\n"))
    #expect(expected[1].contains("::error file=r.json,line=4,col=29,title=wrong-type::"))
    #expect(outputs("\r") == expected)
    #expect(outputs("\r\n") == expected)
    var cr = SourceLines(Array("a\rbc\r\rd\r\ne".utf8))
    #expect(cr.excerpt(line: 2, column: 2)?.source == "    bc")
    #expect(cr.excerpt(line: 3, column: 1) == nil)
    #expect(cr.excerpt(line: 4, column: 1)?.source == "    d")
    #expect(cr.excerpt(line: 5, column: 1)?.source == "    e")
    #expect(cr.excerpt(line: 6, column: 1) == nil)
  }
}
