import Foundation
import RoadmapFormat
import Testing

/// Shape errors: what the Roadmap package rejects, each with position and the fix.
@Suite("Shape rules")
struct ShapeRuleTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var code: String
    var line: Int
    var column: Int
    var path: String
    /// Text the message must contain (the fix).
    var fix: String?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "top level is an object", json: #"{"features": [{"id": "1"}]}"#, code: "not-an-array",
      line: 1, column: 1, path: "", fix: #"move the array in "features" to the top level"#),
    Case(
      name: "feature is a number", json: #"[1]"#, code: "feature-not-object", line: 1, column: 2,
      path: "/0", fix: #"{"id": "12""#),
    Case(
      name: "missing id", json: #"[{"title": "x"}]"#, code: "missing-id", line: 1, column: 2,
      path: "/0", fix: #""id": "12""#),
    Case(
      name: "empty id", json: #"[{"id": ""}]"#, code: "empty-id", line: 1, column: 9,
      path: "/0/id", fix: nil),
    Case(
      name: "numeric id", json: #"[{"id": 1}]"#, code: "id-not-string", line: 1, column: 9,
      path: "/0/id", fix: #""id": "1""#),
    Case(
      name: "null id", json: #"[{"id": null}]"#, code: "id-not-string", line: 1, column: 9,
      path: "/0/id", fix: #""id": "1""#),
    Case(
      name: "numeric title", json: #"[{"id": "1", "title": 3}]"#, code: "wrong-type", line: 1,
      column: 23, path: "/0/title", fix: #""title": "3""#),
    Case(
      name: "isFinished as a string", json: #"[{"id": "1", "isFinished": "true"}]"#,
      code: "wrong-type", line: 1, column: 28, path: "/0/isFinished", fix: #""isFinished": true"#
    ),
    Case(
      name: "isFinished as 1", json: #"[{"id": "1", "isFinished": 1}]"#, code: "wrong-type",
      line: 1, column: 28, path: "/0/isFinished", fix: #""isFinished": true"#),
    Case(
      name: "votes as a string", json: #"[{"id": "1", "votes": "12"}]"#, code: "wrong-type",
      line: 1, column: 23, path: "/0/votes", fix: #""votes": 12"#),
    Case(
      name: "votes with a fraction", json: #"[{"id": "1", "votes": 3.5}]"#,
      code: "votes-not-integer", line: 1, column: 23, path: "/0/votes", fix: #""votes": 4"#),
    Case(
      name: "localized field as an object",
      json: #"[{"id": "1", "localizedTitle": {"de": "Hallo", "en": "Hello"}}]"#,
      code: "localized-not-array", line: 1, column: 32, path: "/0/localizedTitle",
      fix: #"[{"language": "de", "value": "Hallo"}, {"language": "en", "value": "Hello"}]"#),
    // Bug: the values went into the fix unescaped: `"Weiterer tab "Entdecken"` (not JSON),
    // and a line break split the diagnostic over two lines.
    Case(
      name: "localized field as an object with quotes and a line break",
      json: #"[{"id": "1", "localizedTitle": {"de": "Tab \"Entdecken\"", "e\"n": "a\nb\\c"}}]"#,
      code: "localized-not-array", line: 1, column: 32, path: "/0/localizedTitle",
      fix:
        #"[{"language": "de", "value": "Tab \"Entdecken\""}, {"language": "e\"n", "value": "a\nb\\c"}]"#
    ),
    // A fix is copied: a value over 24 characters was cut inside its quotes ("Dark mode for
    // every scre…"), and pasted so it replaced the translation with its first words.
    Case(
      name: "localized field as an object with a long value",
      json:
        #"[{"id": "1", "localizedTitle": {"de": "Hallo", "en": "Dark mode for every screen of the app"}}]"#,
      code: "localized-not-array", line: 1, column: 32, path: "/0/localizedTitle",
      fix:
        #"write "localizedTitle": [{"language": "de", "value": "Hallo"}, {"language": "en", "value": …}] (each … stands for the text as it is now)"#
    ),
    Case(
      name: "one long item without its array",
      json:
        #"[{"id": "1", "localizedTitle": {"language": "de", "value": "Ein Titel, der länger als vierundzwanzig ist"}}]"#,
      code: "localized-not-array", line: 1, column: 32, path: "/0/localizedTitle",
      fix:
        #"write "localizedTitle": [{"language": "de", "value": …}] (each … stands for the text as it is now)"#
    ),
    // An empty object's fix is an empty list: a placeholder item copied as written showed "…"
    // to English readers instead of the plain field.
    Case(
      name: "localized field as an empty object",
      json: #"[{"id": "1", "localizedTitle": {}}]"#,
      code: "localized-not-array", line: 1, column: 32, path: "/0/localizedTitle",
      fix: #"write "localizedTitle": []"#),
    Case(
      name: "localized field as one item without its array",
      json: #"[{"id": "1", "localizedTitle": {"language": "de", "value": "Hallo"}}]"#,
      code: "localized-not-array", line: 1, column: 32, path: "/0/localizedTitle",
      fix: #""localizedTitle": [{"language": "de", "value": "Hallo"}]"#),
    Case(
      name: "localized field as a string", json: #"[{"id": "1", "localizedStatus": "x"}]"#,
      code: "wrong-type", line: 1, column: 33, path: "/0/localizedStatus", fix: nil),
    Case(
      name: "localized item not an object", json: #"[{"id": "1", "localizedTitle": ["x"]}]"#,
      code: "localized-item-not-object", line: 1, column: 33, path: "/0/localizedTitle/0",
      fix: #"{"language": "en", "value": "…"}"#),
    Case(
      name: "localized item without language",
      json: #"[{"id": "1", "localizedTitle": [{"lang": "en", "value": "x"}]}]"#,
      code: "localized-item-missing-language", line: 1, column: 33, path: "/0/localizedTitle/0",
      fix: #"found "lang""#),
    Case(
      name: "localized item without value",
      json: #"[{"id": "1", "localizedTitle": [{"language": "en"}]}]"#,
      code: "localized-item-missing-value", line: 1, column: 33, path: "/0/localizedTitle/0",
      fix: #""value": "…""#),
    Case(
      name: "localized language as a number",
      json: #"[{"id": "1", "localizedTitle": [{"language": 1, "value": "x"}]}]"#,
      code: "wrong-type", line: 1, column: 46, path: "/0/localizedTitle/0/language",
      fix: #""language": "1""#),
    Case(
      name: "duplicate key", json: #"[{"id": "1", "title": "a", "title": "b"}]"#,
      code: "duplicate-key", line: 1, column: 28, path: "/0/title", fix: "keeps the first"),
    Case(
      name: "duplicate key in an unknown object",
      json: #"[{"id": "1", "meta": {"a": 1, "a": 2}}]"#, code: "duplicate-key", line: 1,
      column: 31, path: "/0/meta/a", fix: nil),
    Case(
      name: "duplicate language/value key",
      json: #"[{"id": "1", "localizedTitle": [{"language": "en", "value": "a", "value": "b"}]}]"#,
      code: "duplicate-key", line: 1, column: 66, path: "/0/localizedTitle/0/value", fix: nil),
  ]

  @Test("reports the shape problem with its position, pointer and fix", arguments: cases)
  func reportsShapeProblem(_ item: Case) throws {
    let report = validate(item.json)
    let diagnostic = try #require(report.first(item.code), "codes: \(report.codes)")
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.line == item.line)
    #expect(diagnostic.column == item.column)
    #expect(diagnostic.path == item.path)
    if let fix = item.fix {
      #expect(diagnostic.message.contains(fix), "\(diagnostic.message)")
    }
    // One line per diagnostic, whatever the values hold (problem matchers read lines).
    #expect(!diagnostic.message.contains("\n"), "\(diagnostic.message)")
    #expect(report.hasErrors)
  }

  @Test("a VoteFirst export at the top level is named, with the command that converts it")
  func voteFirstExportIsNamed() throws {
    let report = validate(#"{"format": "votefirst-export", "version": 1, "features": []}"#)
    let diagnostic = try #require(report.first("not-an-array"))
    #expect(diagnostic.message.contains("this is a VoteFirst export: 'roadmapctl convert FILE"))
    #expect(!diagnostic.message.contains("move the array"))
  }

  @Test(
    "a top level that is no JSON value has its one error, no second one naming a literal",
    arguments: ["nonsense", "nul", "fals", "tru e"])
  func brokenTopLevelLiteral(_ text: String) throws {
    let report = validate(text)
    #expect(report.codes.filter { $0 == "not-an-array" }.isEmpty, "\(report.codes)")
    #expect(report.codes.first == "invalid-literal", "\(report.codes)")
    // Read as the app would, the one error is what stops it.
    #expect {
      try RoadmapDocument.read(Array(text.utf8), mode: .compatible)
    } throws: { error in
      (error as? RoadmapReadError)?.diagnostic.code == "invalid-literal"
    }
  }

  @Test("votes written as 3.0 are an integer, as JSONDecoder reads them")
  func wholeDoubleVotes() {
    let report = validate(#"[{"id": "1", "votes": 3.0}, {"id": "2", "votes": 1e2}]"#)
    #expect(report.diagnostics.isEmpty)
    #expect(report.features.map(\.votes) == [3, 100])
  }

  @Test("null is the same as a missing key")
  func nullIsMissing() {
    let report = validate(
      #"[{"id": "1", "title": null, "status": null, "description": null, "isFinished": null, "votes": null, "localizedTitle": null, "localizedStatus": null, "localizedDescription": null}]"#
    )
    #expect(report.diagnostics.isEmpty)
    #expect(report.features == [RoadmapFeature(id: "1")])
  }

  @Test("duplicate keys keep the first value, as JSONDecoder does")
  func duplicateKeysKeepFirst() throws {
    let document = try RoadmapDocument.read(
      Array(#"[{"id": "1", "id": 2, "title": "a", "title": "b", "x": 1, "x": 2}]"#.utf8),
      mode: .compatible)
    #expect(document.features.first?.id == "1")
    #expect(document.features.first?.title == "a")
    #expect(document.features.first?.extra["x"] == .number("1"))
    #expect(document.diagnostics.filter { $0.code == "duplicate-key" }.count == 3)
  }

  @Test("the duplicate-key diagnostic names the first occurrence")
  func duplicateKeyRelated() throws {
    let report = validate("[{\"id\": \"1\",\n  \"title\": \"a\",\n  \"title\": \"b\"}]")
    let diagnostic = try #require(report.first("duplicate-key"))
    #expect(diagnostic.line == 3)
    #expect(diagnostic.related.map(\.line) == [2])
    #expect(diagnostic.related.map(\.column) == [3])
  }

  @Test("compatible validation counts no feature as loaded when the app would reject the file")
  func compatibleValidationLoadsNothing() {
    let json = #"[{"id": "1"}, {"id": 2}]"#
    #expect(validate(json).features.map(\.id) == ["1"])
    #expect(validate(json, options: .init(compatible: true)).features.isEmpty)
    #expect(validate(json, options: .init(compatible: true)).featureCount == 2)
  }

  @Test("every way in gives the same report and the same features")
  func sameReportEveryWay() {
    let json = #"[{"id": "1", "status": "Done ", "x": [1]}, {"id": "1"}, {"id": 3}]"#
    let bytes = Array(json.utf8)
    let validator = RoadmapValidator()
    let fromBytes = validator.validate(bytes)
    let fromData = validator.validate(Data(bytes))
    let fromBuffer = bytes.withUnsafeBufferPointer { validator.validate($0, previous: nil) }
    #expect(fromBytes.diagnostics == fromData.diagnostics)
    #expect(fromBytes.diagnostics == fromBuffer.diagnostics)
    #expect(fromBytes.features.map(\.id) == ["1", "1"])
    #expect(fromData.features == fromBytes.features)
    #expect(fromBuffer.features == fromBytes.features)
    #expect(fromBytes.features.first?.extra["x"] == .array([.number("1")]))
    var edited = fromBytes
    edited.features = []
    #expect(edited.features.isEmpty)
    #expect(fromBytes.featureCount == 3)
  }
}
