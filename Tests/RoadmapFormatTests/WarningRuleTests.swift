import Foundation
import RoadmapFormat
import Testing

/// Warnings and the rules that need every feature.
@Suite("Warning and cross-feature rules")
struct WarningRuleTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var code: String
    var severity: Severity
    var path: String
    var says: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "language missing in some features",
      json: """
        [{"id": "1", "localizedTitle": [{"language": "en", "value": "A"}, {"language": "de", "value": "A"}]},
         {"id": "2", "localizedTitle": [{"language": "en", "value": "B"}]}]
        """,
      code: "inconsistent-languages", severity: .warning, path: "/1/localizedTitle",
      says: #""de" is in localizedTitle of 1 feature but missing in 1: feature "2""#),
    Case(
      name: "duplicate language",
      json:
        #"[{"id": "1", "localizedTitle": [{"language": "en", "value": "A"}, {"language": "en", "value": "B"}]}]"#,
      code: "duplicate-language", severity: .warning, path: "/0/localizedTitle/1/language",
      says: "uses the first"),
    Case(
      name: "underscore language tag",
      json: #"[{"id": "1", "localizedTitle": [{"language": "pt_BR", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #""pt-BR""#),
    Case(
      name: "uppercase language tag",
      json: #"[{"id": "1", "localizedTitle": [{"language": "EN", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #""en""#),
    // The app compares tags exactly with localizations named `zh-Hans`, `pt-BR`.
    Case(
      name: "lowercase script",
      json: #"[{"id": "1", "localizedTitle": [{"language": "zh-hans", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #"write "zh-Hans""#),
    Case(
      name: "lowercase region",
      json: #"[{"id": "1", "localizedTitle": [{"language": "pt-br", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #"write "pt-BR""#),
    Case(
      name: "script and region in other cases",
      json: #"[{"id": "1", "localizedTitle": [{"language": "zh-HANT-tw", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #"write "zh-Hant-TW""#),
    // A fix quotes the whole text, or says what to remove: a text over 60 characters was cut
    // ("write "A title … in …"") and pasted cut.
    Case(
      name: "trailing space after a long title",
      json:
        #"[{"id": "1", "title": "A title that is quite a bit longer than sixty characters in total "}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/title",
      says: "has a trailing space; the app shows it as is: remove the white space at its end"),
    Case(
      name: "leading and trailing space around a long status",
      json:
        #"[{"id": "1", "status": " In progress, with a status name that is longer than sixty characters "}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/status",
      says: "compares statuses exactly: remove the white space at its start and end"),
    // The spelling suggested is the whole tag as localizations are named: following it must
    // not lead to a second warning (`EN-us` suggested `en-us`, `en_us` suggested `en-us`).
    Case(
      name: "uppercase language and lowercase region",
      json: #"[{"id": "1", "localizedTitle": [{"language": "EN-us", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #"write "en-US""#),
    Case(
      name: "underscore and lowercase region",
      json: #"[{"id": "1", "localizedTitle": [{"language": "en_us", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: #"write "en-US""#),
    Case(
      name: "language name instead of a tag",
      json: #"[{"id": "1", "localizedTitle": [{"language": "English", "value": "A"}]}]"#,
      code: "malformed-language-tag", severity: .warning, path: "/0/localizedTitle/0/language",
      says: "not a language tag"),
    Case(
      name: "finished status without isFinished", json: #"[{"id": "1", "status": "Done"}]"#,
      code: "finished-status-not-flagged", severity: .warning, path: "/0/status",
      says: #""isFinished": true"#),
    Case(
      name: "isFinished on a planned status",
      json: #"[{"id": "1", "status": "geplant", "isFinished": true}]"#,
      code: "planned-status-flagged-finished", severity: .warning, path: "/0/status",
      says: #""isFinished": false"#),
    Case(
      name: "trailing space in a status", json: #"[{"id": "1", "status": "Planned "}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/status",
      says: #"write "Planned""#),
    // Bug: a space written as an escape went unnoticed, though the app reads it the same.
    Case(
      name: "trailing space written as an escape",
      json: #"[{"id": "1", "status": "Planned\u0020"}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/status",
      says: #"write "Planned""#),
    Case(
      name: "leading no-break space written as an escape",
      json: #"[{"id": "1", "title": "\u00a0Lead"}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/title", says: #"write "Lead""#),
    // Bug: the advice dropped every no-break space, the ones inside the text too ("10km").
    Case(
      name: "a no-break space inside the text stays in the advice",
      json: "[{\"id\": \"1\", \"title\": \" 10\u{A0}km\"}]",
      code: "surrounding-whitespace", severity: .warning, path: "/0/title",
      says: "write \"10\u{A0}km\""),
    // Bug: "\r\n" is one Character, so a trailing CRLF was left in the advice.
    Case(
      name: "a trailing CRLF is trimmed in the advice",
      json: #"[{"id": "1", "title": "Widgets\r\n"}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/title",
      says: #"write "Widgets""#),
    // A line break or a tab is not "a space".
    Case(
      name: "a trailing line break is called white space",
      json: #"[{"id": "1", "title": "Widgets\n"}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/title",
      says: #"has trailing white space (a line break); the app shows it"#),
    Case(
      name: "a leading tab is called white space",
      json: #"[{"id": "1", "title": "\tWidgets"}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/title",
      says: #"has leading white space (a tab); the app shows it"#),
    // Bug: a status ending in CRLF did not read as finished.
    Case(
      name: "finished status ending in a line break",
      json: #"[{"id": "1", "status": "Done\r\n"}]"#,
      code: "finished-status-not-flagged", severity: .warning, path: "/0/status",
      says: #""isFinished": true"#),
    Case(
      name: "leading space in a translation",
      json: #"[{"id": "1", "localizedTitle": [{"language": "en", "value": " Widgets"}]}]"#,
      code: "surrounding-whitespace", severity: .warning, path: "/0/localizedTitle/0/value",
      says: #"write "Widgets""#),
    Case(
      name: "negative votes", json: #"[{"id": "1", "votes": -3}]"#, code: "negative-votes",
      severity: .warning, path: "/0/votes", says: "use 0"),
    Case(
      name: "lowercase isfinished", json: #"[{"id": "1", "isfinished": true}]"#,
      code: "unknown-key-typo", severity: .warning, path: "/0/isfinished",
      says: #""isFinished""#),
    Case(
      name: "plural localizedTitles", json: #"[{"id": "1", "localizedTitles": []}]"#,
      code: "unknown-key-typo", severity: .warning, path: "/0/localizedTitles",
      says: #""localizedTitle""#),
    Case(
      name: "misspelled description", json: #"[{"id": "1", "desciption": "x"}]"#,
      code: "unknown-key-typo", severity: .warning, path: "/0/desciption",
      says: #""description""#),
    Case(
      name: "misspelled value in an item",
      json: #"[{"id": "1", "localizedTitle": [{"language": "en", "value": "a", "valeu": "b"}]}]"#,
      code: "unknown-key-typo", severity: .warning, path: "/0/localizedTitle/0/valeu",
      says: #""value""#),
    Case(
      name: "empty translation",
      json: #"[{"id": "1", "localizedTitle": [{"language": "en", "value": ""}]}]"#,
      code: "empty-value", severity: .warning, path: "/0/localizedTitle/0/value",
      says: "still wins"),
    Case(
      name: "duplicate ids", json: "[{\"id\": \"7\"},\n {\"id\": \"7\"}]", code: "duplicate-id",
      severity: .error, path: "/1/id", says: "already used by feature #1;"),
    Case(
      name: "id with a space", json: #"[{"id": "dark mode"}]"#, code: "invalid-counter-key",
      severity: .error, path: "/0/id", says: "contains space"),
    // Characters that would break a message's line or reach the terminal are quoted escaped.
    Case(
      name: "id with a line break and an escape character",
      json: #"[{"id": "a\nb\u001bc"}]"#, code: "invalid-counter-key",
      severity: .error, path: "/0/id", says: #"contains "\n", "\u001b""#),
    Case(
      name: "id too long for a counter key",
      json: "[{\"id\": \"\(String(repeating: "a", count: 58))\"}]", code: "invalid-counter-key",
      severity: .error, path: "/0/id", says: "65 characters long"),
  ]

  @Test("reports the rule with its severity, pointer and advice", arguments: cases)
  func reportsRule(_ item: Case) throws {
    let report = validate(item.json)
    let diagnostic = try #require(report.first(item.code), "codes: \(report.codes)")
    #expect(diagnostic.severity == item.severity)
    #expect(diagnostic.path == item.path)
    #expect(diagnostic.message.contains(item.says), "\(diagnostic.message)")
  }

  /// Tags written as localizations are named pass: no warning for any of them.
  @Test(arguments: ["en", "de", "zh-Hans", "zh-Hant-TW", "pt-BR", "es-419", "sr-Latn", "en-GB"])
  func wellWrittenTagsPass(tag: String) {
    let report = validate(
      #"[{"id": "1", "localizedTitle": [{"language": "\#(tag)", "value": "A"}]}]"#)
    #expect(report.first("malformed-language-tag") == nil, "\(tag)")
  }

  /// A syntax error that stops the reading with text after it says so in a note: nothing after
  /// it was checked (a user fixed one error and met new ones, the count of features too low).
  @Test func aSyntaxErrorThatStopsTheReadingSaysSo() throws {
    let report = validate(#"[{"id": "1"},, {"id": 2}]"#)
    #expect(report.codes == ["unexpected-character", "reading-stopped"])
    let note = try #require(report.first("reading-stopped"))
    #expect(note.severity == .info)
    #expect(note.message.contains("nothing after it was checked (1 feature before it)"))
    // At the end nothing was left unread: no note.
    #expect(validate(#"[{"id": "1"} @"#).first("reading-stopped") == nil)
  }

  /// Bug: a character that starts no value where an element was expected (`[,`, a vertical
  /// tab or no-break space used as whitespace) was counted as a feature: "1 feature before it"
  /// for a file whose first element was the error, and one too many in the summary.
  @Test(arguments: [
    (#"[,{"id": "1"}, {"id": "2"}]"#, 0),
    ("[{\"id\": \"1\"},\n\u{0B}{\"id\": \"2\"}]", 1),
    ("[{\"id\": \"1\"}, \u{A0}{\"id\": \"2\"}]", 1),
  ])
  func aCharacterThatStartsNoValueIsNoFeature(json: String, before: Int) throws {
    let report = validate(json)
    #expect(report.featureCount == before, "\(report.codes)")
    let note = try #require(report.first("reading-stopped"))
    let counted = before == 1 ? "1 feature" : "\(before) features"
    #expect(note.message.contains("(\(counted) before it)"), "\(note.message)")
  }

  @Test("unknown keys that are not typos are fine")
  func unknownKeysAreFine() {
    let report = validate(
      #"[{"id": "1", "url": "https://x", "date": "2025-01-01", "tags": ["a"], "notes": "x", "stats": 1, "voted": false}]"#
    )
    #expect(report.diagnostics.isEmpty)
  }

  @Test("a well-formed file has no diagnostics")
  func cleanFile() {
    let json = """
      [
        {"id": "1", "title": "Widgets", "status": "planned", "votes": 3,
         "localizedTitle": [{"language": "en", "value": "Widgets"}, {"language": "zh-Hans", "value": "小组件"}]},
        {"id": "2", "title": "Sync", "status": "done", "isFinished": true,
         "localizedTitle": [{"language": "en", "value": "Sync"}, {"language": "zh-Hans", "value": "同步"}]}
      ]
      """
    #expect(validate(json).diagnostics.isEmpty)
  }

  @Test("ids in two Unicode forms of one text are one id, as Swift and the server compare")
  func duplicateIDInAnotherUnicodeForm() throws {
    // "café" precomposed, then with e + U+0301.
    let report = validate("[{\"id\": \"caf\u{E9}\"},\n {\"id\": \"cafe\u{301}\"}]")
    let duplicates = report.diagnostics.filter { $0.code == "duplicate-id" }
    #expect(duplicates.map(\.line) == [2], "\(duplicates)")
    let diagnostic = try #require(duplicates.first)
    #expect(diagnostic.message.contains("in another Unicode form"))
    #expect(diagnostic.related.first?.line == 1)
    // The Kelvin sign's canonical form is K, either way round.
    for json in [
      "[{\"id\": \"K1x\"},\n {\"id\": \"\\u212A1x\"}]",
      "[{\"id\": \"\\u212A1x\"},\n {\"id\": \"K1x\"}]",
    ] {
      let kelvin = validate(json).diagnostics.filter { $0.code == "duplicate-id" }
      #expect(kelvin.map(\.line) == [2], "\(json): \(kelvin)")
    }
    // Case still makes another id.
    let cased = validate("[{\"id\": \"K1x\"}, {\"id\": \"k1x\"}, {\"id\": \"\\u212A1y\"}]")
    #expect(!cased.diagnostics.contains { $0.code == "duplicate-id" })
  }

  @Test("the duplicate id names both places")
  func duplicateIDBothPlaces() throws {
    let report = validate("[{\"id\": \"7\"},\n {\"id\": \"7\"}]")
    let diagnostic = try #require(report.first("duplicate-id"))
    #expect(diagnostic.line == 2)
    #expect(diagnostic.column == 9)
    #expect(diagnostic.related.count == 1)
    #expect(diagnostic.related.first?.path == "/0/id")
    #expect(diagnostic.related.first?.line == 1)
    #expect(diagnostic.related.first?.column == 9)
  }

  @Test("ids equal after unescaping are duplicates")
  func escapedDuplicate() {
    #expect(validate(#"[{"id": "a1"}, {"id": "\u0061\u0031"}]"#).first("duplicate-id") != nil)
  }

  @Test("the key template decides the counter key")
  func keyTemplate() {
    let json = #"[{"id": "1"}]"#
    #expect(validate(json).first("invalid-counter-key") == nil)
    #expect(validate(json, options: .init(keyTemplate: "{id}")).first("invalid-counter-key") != nil)
    #expect(validate(json, options: .init(keyTemplate: "feature-{id}")).diagnostics.isEmpty)
  }

  @Test("--languages requires every listed language in every field a feature has")
  func requiredLanguages() throws {
    let json = """
      [{"id": "1", "title": "A", "localizedTitle": [{"language": "en", "value": "A"}, {"language": "de", "value": "A"}]},
       {"id": "2", "title": "B", "description": "x", "localizedTitle": [{"language": "en", "value": "B"}]}]
      """
    let report = validate(json, options: .init(languages: ["en", "de"]))
    let missing = report.diagnostics.filter { $0.code == "missing-language" }
    #expect(missing.count == 1)
    let diagnostic = try #require(missing.first)
    #expect(diagnostic.severity == .error)
    // The pointer names what the position points at: the list that lacks a language.
    #expect(diagnostic.path == "/1/localizedTitle")
    #expect(diagnostic.line == 2 && diagnostic.column == 66)
    #expect(diagnostic.message.contains("localizedTitle lacks de"))
    #expect(diagnostic.message.contains("localizedDescription lacks en, de"))
  }

  @Test("--statuses allows only the listed statuses")
  func allowedStatuses() throws {
    let json = #"[{"id": "1", "status": "planned"}, {"id": "2", "status": "Planned"}]"#
    let report = validate(json, options: .init(statuses: ["planned", "finished"]))
    let diagnostic = try #require(report.first("unknown-status"))
    #expect(diagnostic.path == "/1/status")
    #expect(diagnostic.message.contains(#"write "planned""#))
    #expect(report.diagnostics.filter { $0.code == "unknown-status" }.count == 1)
  }

  @Test("--statuses names a near miss, and only a near one")
  func allowedStatusesNameANearMiss() {
    let json = """
      [{"id": "1", "status": "planed"}, {"id": "2", "status": "in_progress"},
       {"id": "3", "status": " Finshed "}, {"id": "4", "status": "someday"}]
      """
    let report = validate(json, options: .init(statuses: ["planned", "in-progress", "finished"]))
    let messages = report.diagnostics.filter { $0.code == "unknown-status" }.map(\.message)
    #expect(messages.count == 4)
    #expect(messages[0].hasSuffix(#": write "planned""#))
    #expect(messages[1].hasSuffix(#": write "in-progress""#))
    #expect(messages[2].hasSuffix(#": write "finished""#))
    #expect(messages[3].hasSuffix(": use one of them or extend --statuses"))
  }

  /// The rules that need every feature list at most 1000 diagnostics of a code too, then
  /// count the rest in one note, as the parser's rules do.
  @Test(
    "cross-feature rules stop listing a code at 1000",
    arguments: [
      ("duplicate-id", ValidationOptions(), false),
      ("missing-language", ValidationOptions(languages: ["en"]), false),
      ("unknown-status", ValidationOptions(statuses: ["planned"]), false),
      ("removed-id", ValidationOptions(), true),
    ])
  func crossFeatureCodesAreCapped(code: String, options: ValidationOptions, removed: Bool) throws {
    let count = 3000
    let features = (0..<count).map { index in
      let id = code == "duplicate-id" ? "same" : "new\(index)"
      return #"{"id": "\#(id)", "title": "T", "status": "s\#(index)", "#
        + #""localizedTitle": [{"language": "de", "value": "T"}]}"#
    }
    let previous =
      removed ? "[" + (0..<count).map { #"{"id": "old\#($0)"}"# }.joined(separator: ",") + "]" : nil
    let report = validate(
      "[" + features.joined(separator: ",\n") + "]", options: options, previous: previous)
    let listed = report.diagnostics.filter { $0.code == code }
    #expect(listed.count == 1000)
    let severity = try #require(listed.first?.severity)
    let note = try #require(
      report.diagnostics.first {
        $0.code == "diagnostics-truncated" && $0.message.contains("[\(code)]")
      })
    let more = count - 1000 - (code == "duplicate-id" ? 1 : 0)
    #expect(note.message.hasPrefix("\(more) more \(severity.rawValue)s [\(code)] not listed"))
    #expect(note.severity == .info)
  }

  @Test("a removed id is an error unless removal is allowed")
  func removedID() throws {
    let previous = #"[{"id": "1", "title": "A"}, {"id": "2", "title": "B"}]"#
    let current = #"[{"id": "1", "title": "A"}]"#
    let report = validate(current, previous: previous)
    let diagnostic = try #require(report.first("removed-id"))
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.message.contains(#""2""#))
    #expect(diagnostic.related.first?.path == "/1/id")
    #expect(diagnostic.related.first?.column == 36)
    let allowed = validate(current, options: .init(allowRemoved: true), previous: previous)
    #expect(allowed.first("removed-id")?.severity == .info)
    #expect(!allowed.hasErrors)
  }

  @Test("the same title under a new id is a probable rename")
  func probableRename() throws {
    let previous = #"[{"id": "1", "title": "Dark mode"}]"#
    let current = #"[{"id": "dark-mode", "title": "Dark mode"}]"#
    let report = validate(current, previous: previous)
    let rename = try #require(report.first("probable-rename"))
    #expect(rename.severity == .warning)
    #expect(rename.path == "/0/id")
    #expect(report.first("removed-id")?.message.contains(#"renamed to "dark-mode""#) == true)
  }

  /// A previous version the app could not load showed no feature to vote on, so a file that
  /// repairs it loses no votes: a warning (an info with --allow-removed), never an error that
  /// keeps the repair from passing CI.
  @Test(
    "an unreadable previous version is reported, and does not fail the repair",
    arguments: ["{", "", #"{"features": []}"#, "<html>", #"[{"id": "1""#])
  func unreadablePrevious(previous: String) {
    let report = validate(#"[{"id": "1"}]"#, previous: previous)
    #expect(report.first("previous-unreadable")?.severity == .warning)
    #expect(!report.hasErrors)
    let allowed = validate(
      #"[{"id": "1"}]"#, options: ValidationOptions(allowRemoved: true), previous: previous)
    #expect(allowed.first("previous-unreadable")?.severity == .info)
  }

  /// Bug: a previous version that reads, but that the app rejects all the same (a wrong type,
  /// a localized field written as an object, a missing comma), was compared id by id, so the
  /// repair that dropped one of its features failed with `removed-id`, though that version
  /// showed an empty roadmap.
  @Test(
    "a previous version the app rejects is reported as such, and does not fail the repair",
    arguments: [
      #"[{"id": "1"}, {"id": "2", "votes": "3"}]"#,
      "[{\"id\": \"1\"},\n {\"id\": \"2\", \"localizedTitle\": {\"en\": \"B\"}}]",
      #"[{"id": "1"} {"id": "2"}]"#,
    ])
  func previousTheAppRejects(previous: String) throws {
    let report = validate(#"[{"id": "1"}]"#, previous: previous)
    let note = try #require(report.first("previous-unreadable"), "\(report.codes)")
    #expect(note.severity == .warning)
    #expect(note.message.hasPrefix("the app could not load the previous version ("))
    #expect(note.related.first?.document == .previous)
    #expect(note.related.first?.line == (previous.contains("\n") ? 2 : 1))
    #expect(report.first("removed-id") == nil)
    #expect(!report.hasErrors)
    let allowed = validate(
      #"[{"id": "1"}]"#, options: ValidationOptions(allowRemoved: true), previous: previous)
    #expect(allowed.first("previous-unreadable")?.severity == .info)
  }

  @Test("a byte-order mark is a warning only")
  func byteOrderMark() {
    let report = RoadmapValidator().validate([0xEF, 0xBB, 0xBF] + Array(#"[{"id": "1"}]"#.utf8))
    #expect(report.codes == ["byte-order-mark"])
    #expect(!report.hasErrors)
    #expect(report.hasWarnings)
  }

  @Test("diagnostics come sorted by line and column")
  func sorted() {
    let report = validate(
      "[{\"id\": \"1\", \"status\": \"Done \"},\n {\"id\": \"1\", \"votes\": -1}]")
    let positions = report.diagnostics.map { [$0.line, $0.column] }
    #expect(positions == positions.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
    #expect(
      Set(report.codes) == [
        "surrounding-whitespace", "finished-status-not-flagged", "duplicate-id", "negative-votes",
      ])
  }

  @Test("every code is documented in docs/roadmap-format.md")
  func codesDocumented() throws {
    let docs = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/roadmap-format.md"), encoding: .utf8)
    for code in DiagnosticCodes.all {
      #expect(docs.contains("`\(code)`"), "\(code) is not documented")
    }
  }
}
