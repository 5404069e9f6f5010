import Foundation
import Testing

/// Every diagnostic code the module emits; docs/roadmap-format.md documents each.
enum DiagnosticCodes {
  static let all: Set<String> = [
    // syntax
    "empty-document", "byte-order-mark", "invalid-encoding", "trailing-comma", "missing-comma",
    "missing-colon", "comment", "unterminated-string", "invalid-escape", "lone-surrogate",
    "invalid-utf8", "control-character-in-string", "non-finite-number", "invalid-number",
    "number-out-of-range", "invalid-literal", "single-quoted-string", "unquoted-key",
    "unexpected-character", "unexpected-end-of-input", "mismatched-bracket", "trailing-content",
    "nesting-too-deep", "too-many-errors", "not-text",
    // shape
    "not-an-array", "feature-not-object", "missing-id", "empty-id", "id-not-string",
    "wrong-type", "votes-not-integer", "localized-not-array", "localized-item-not-object",
    "localized-item-missing-language", "localized-item-missing-value", "duplicate-key",
    // across features
    "duplicate-id", "invalid-counter-key", "missing-language", "unknown-status", "removed-id",
    "probable-rename", "previous-unreadable",
    // warnings
    "inconsistent-languages", "duplicate-language", "malformed-language-tag",
    "finished-status-not-flagged", "planned-status-flagged-finished", "surrounding-whitespace",
    "negative-votes", "unknown-key-typo", "empty-value",
    // info
    "diagnostics-truncated", "reading-stopped",
  ]
}

@Suite("Diagnostic codes")
struct DiagnosticCodeListTests {
  @Test("the list matches the codes written in the sources")
  func listMatchesSources() throws {
    let folder = packageRoot.appendingPathComponent("Sources/RoadmapFormat")
    let files = try #require(FileManager.default.enumerator(atPath: folder.path))
    var found: Set<String> = ["comment"]
    let pattern = try NSRegularExpression(pattern: #""([a-z0-9]+(-[a-z0-9]+)+)""#)
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        if let range = Range(match.range(at: 1), in: text) { found.insert(String(text[range])) }
      }
    }
    found.remove("in-progress")  // a status word, not a code
    found.remove("votefirst-export")  // a document's format, not a code
    #expect(found == DiagnosticCodes.all)
  }

  @Test("codes are kebab-case")
  func kebabCase() {
    for code in DiagnosticCodes.all {
      #expect(code.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(code)")
    }
  }
}
