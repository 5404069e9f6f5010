import RoadmapFormat
import Testing

@testable import RoadmapCLI

/// The three output formats of `validate`, on diagnostics written here (no reader involved).
@Suite struct ValidateFormatterTests {
  static let source = "[\n  {\"id\": 1, \"title\": \"Dark mode\"},\n  {\"id\": \"1\"}\n]\n"

  static func file(
    _ diagnostics: [Diagnostic], bytes: String = source, valid: Bool = false,
    path: String = "r.json"
  ) -> ValidatedFile {
    ValidatedFile(
      displayPath: path, bytes: Array(bytes.utf8), diagnostics: diagnostics, featureCount: 2,
      isValid: valid)
  }

  static let idNotString = Diagnostic(
    code: "id-not-string", severity: .error,
    message: "The id must be a string: write \"id\": \"1\".", path: "/0/id", line: 2, column: 10)

  @Test func humanShowsTheLineAndACaretUnderTheColumn() {
    let output = HumanFormatter.render([Self.file([Self.idNotString])])
    #expect(
      output == """
        r.json:2:10: error: The id must be a string: write "id": "1". [id-not-string]
              {"id": 1, "title": "Dark mode"},
                     ^
        r.json: 2 features, 1 error (invalid)

        """)
  }

  @Test func humanNamesRelatedPlacesAsNotes() {
    var duplicate = Diagnostic(
      code: "duplicate-id", severity: .error, message: "The id \"1\" is used twice.",
      path: "/1/id", line: 3, column: 10)
    duplicate.related = [
      RelatedLocation(message: "first used here", path: "/0/id", line: 2, column: 11)
    ]
    let warning = Diagnostic(
      code: "surrounding-whitespace", severity: .warning, message: "Trim it.", path: "/0/title",
      line: 2, column: 24)
    let info = Diagnostic(
      code: "hint", severity: .info, message: "A hint.", path: "", line: 1, column: 1)
    let output = HumanFormatter.render([Self.file([info, warning, duplicate])])
    #expect(output.contains("r.json:3:10: error: The id \"1\" is used twice. [duplicate-id]\n"))
    #expect(output.contains("r.json:2:11: note: first used here\n"))
    #expect(output.contains("r.json:2:24: warning: Trim it. [surrounding-whitespace]\n"))
    #expect(output.contains("r.json:1:1: info: A hint. [hint]\n    [\n    ^\n"))
    #expect(output.hasSuffix("r.json: 2 features, 1 error, 1 warning, 1 note (invalid)\n"))
  }

  @Test func humanSummaryOfACleanFile() {
    #expect(
      HumanFormatter.render([Self.file([], valid: true)]) == "r.json: 2 features, no problems\n")
  }

  @Test func excerptOfALongLineIsAWindowAroundTheColumn() throws {
    let line = "[" + String(repeating: "{\"id\":\"a\"},", count: 500) + "{\"id\":2}]"
    var lines = SourceLines(Array(line.utf8))
    let column = line.count - 2
    let found = lines.excerpt(line: 1, column: column)
    let excerpt = try #require(found)
    #expect(excerpt.source.hasPrefix("    …"))
    #expect(excerpt.source.count <= 4 + 1 + 2 * SourceLines.context + 1)
    let caretIndex = excerpt.caret.count - 1
    let marked = Array(excerpt.source)[caretIndex]
    #expect(marked == "2")
  }

  @Test func excerptOfALineUpTo160BytesIsWhole() throws {
    let line = "{\"id\": 1, \"title\": \"" + String(repeating: "a", count: 130) + "\"}"
    var lines = SourceLines(Array(line.utf8))
    let found = lines.excerpt(line: 1, column: 8)
    let excerpt = try #require(found)
    #expect(excerpt.source == "    " + line)
    #expect(excerpt.caret == "           ^")
  }

  @Test func excerptCountsColumnsInUnicodeScalarsAndHandlesCRLFAndTabs() throws {
    var lines = SourceLines(Array("[\r\n\t{\"title\": \"Ünïcødé\", x}\r\n]".utf8))
    let found = lines.excerpt(line: 2, column: 23)
    let excerpt = try #require(found)
    #expect(excerpt.source == "     {\"title\": \"Ünïcødé\", x}")
    #expect(excerpt.caret == "                          ^")
    #expect(lines.excerpt(line: 9, column: 1) == nil)
    #expect(lines.excerpt(line: 0, column: 1) == nil)
  }

  /// A terminal draws East Asian wide characters and emoji in two columns and combining marks
  /// in none: the caret counts columns so, not characters (it stood left of the column).
  @Test func caretIsUnderTheColumnPastWideCharactersAndCombiningMarks() throws {
    var cjk = SourceLines(Array("[{\"title\": \"共享购物\", x}]".utf8))
    let wideFound = cjk.excerpt(line: 1, column: 20)
    let wide = try #require(wideFound)
    #expect(wide.source == "    [{\"title\": \"共享购物\", x}]")
    #expect(wide.caret == "    " + String(repeating: " ", count: 12 + 8 + 3) + "^")
    // 👍🏽 (a skin tone), é (e and a combining acute), 🇩🇪 (two regional indicators), ＡＢ
    // (fullwidth): two scalars each but two, one, two columns; then two columns each.
    var emoji = SourceLines(Array("{\"t\": \"👍🏽e\u{301}🇩🇪ＡＢ\", x}".utf8))
    let mixedFound = emoji.excerpt(line: 1, column: 19)
    let mixed = try #require(mixedFound)
    #expect(mixed.caret == "    " + String(repeating: " ", count: 7 + 2 + 1 + 2 + 4 + 3) + "^")
    // A long line's window: the "…" before it is one column.
    let long = "[" + String(repeating: "日本", count: 100) + "x]"
    var window = SourceLines(Array(long.utf8))
    let cutFound = window.excerpt(line: 1, column: 202)
    let cut = try #require(cutFound)
    #expect(cut.source.hasPrefix("    …日本"))
    #expect(cut.caret == "    " + String(repeating: " ", count: 1 + 120) + "^")
  }

  @Test func excerptsOfSortedDiagnosticsOnOneLineReuseTheCursor() {
    var lines = SourceLines(Array("abcdefghij".utf8))
    #expect(lines.excerpt(line: 1, column: 3)?.caret == "      ^")
    #expect(lines.excerpt(line: 1, column: 8)?.caret == "           ^")
    #expect(lines.excerpt(line: 1, column: 2)?.caret == "     ^")
    #expect(lines.excerpt(line: 1, column: 99)?.caret == "              ^")
  }

  @Test func githubAnnotationsEscapeDataAndProperties() throws {
    var diagnostic = Diagnostic(
      code: "odd,code:x", severity: .error, message: "100% wrong\r\nsecond line", path: "",
      line: 4, column: 2)
    diagnostic.related = [RelatedLocation(message: "see here", path: "", line: 1, column: 1)]
    let warning = Diagnostic(
      code: "w", severity: .warning, message: "m", path: "", line: 1, column: 1)
    let info = Diagnostic(code: "i", severity: .info, message: "n", path: "", line: 1, column: 1)
    let output = GitHubFormatter.render([
      Self.file([diagnostic, warning, info], path: "dir,1/a:b.json")
    ])
    let lines = output.split(separator: "\n")
    try #require(lines.count == 4)
    #expect(
      lines[0]
        == "::error file=dir%2C1/a%3Ab.json,line=4,col=2,title=odd%2Ccode%3Ax::"
        + "100%25 wrong%0D%0Asecond line%0Adir,1/a:b.json:1:1: see here")
    #expect(lines[1] == "::warning file=dir%2C1/a%3Ab.json,line=1,col=1,title=w::m")
    #expect(lines[2] == "::notice file=dir%2C1/a%3Ab.json,line=1,col=1,title=i::n")
    #expect(lines[3] == "dir,1/a:b.json: 2 features, 1 error, 1 warning, 1 note (invalid)")
  }

  /// Under `--strict` a warning fails the job, so GitHub is told it is an error (it was a
  /// `::warning` annotation on a failed step).
  @Test func githubAnnotatesWarningsAsErrorsUnderStrict() {
    let warning = Diagnostic(
      code: "w", severity: .warning, message: "m", path: "", line: 1, column: 1)
    let info = Diagnostic(code: "i", severity: .info, message: "n", path: "", line: 1, column: 1)
    let strict = GitHubFormatter.render([Self.file([warning, info])], strict: true)
    #expect(
      strict.split(separator: "\n").prefix(2) == [
        "::error file=r.json,line=1,col=1,title=w::m",
        "::notice file=r.json,line=1,col=1,title=i::n",
      ])
    let plain = GitHubFormatter.render([Self.file([warning])])
    #expect(plain.hasPrefix("::warning file=r.json,line=1,col=1,title=w::m\n"))
  }

  @Test func jsonHasExactlyTheDocumentedShape() {
    let tricky = Diagnostic(
      code: "c", severity: .warning, message: "quote \" backslash \\ newline \n tab \t bell \u{7}",
      path: "/0/a~1b", line: 1, column: 2)
    let output = JSONFormatter.render([
      Self.file([Self.idNotString, tricky]), Self.file([], valid: true, path: "<stdin>"),
    ])
    #expect(
      output
        == #"{"files":[{"path":"r.json","valid":false,"features":2,"diagnostics":["#
        + #"{"code":"id-not-string","severity":"error","message":"The id must be a string: "#
        + #"write \"id\": \"1\".","path":"/0/id","line":2,"column":10,"related":[]},"#
        + #"{"code":"c","severity":"warning","message":"quote \" backslash \\ newline \n tab \t "#
        + #"bell \u0007","path":"/0/a~1b","line":1,"column":2,"related":[]}]},"#
        + #"{"path":"<stdin>","valid":true,"features":2,"diagnostics":[]}]}"# + "\n")
  }

  @Test func htmlIsRecognizedAfterWhitespaceAndABOM() {
    #expect(InputLoader.looksLikeHTML(Array("<!DOCTYPE html>".utf8)))
    #expect(InputLoader.looksLikeHTML([0xEF, 0xBB, 0xBF] + Array(" \n<html>".utf8)))
    #expect(!InputLoader.looksLikeHTML(Array("[]".utf8)))
    #expect(!InputLoader.looksLikeHTML([]))
    #expect(InputLoader.isURL("HTTPS://example.com/r.json"))
    #expect(!InputLoader.isURL("roadmap.json"))
  }

  @Test func showTableAlignsWideCharacters() {
    let features = [
      ResolvedFeature(
        id: "1", title: "共享购物清单", status: "计划中", description: "", isFinished: false, votes: nil),
      ResolvedFeature(
        id: "2", title: "Widgets", status: "done", description: "", isFinished: true, votes: nil),
    ]
    #expect(
      ShowFormatter.table(features)
        == """
        ID  TITLE         STATUS  FINISHED
        1   共享购物清单  计划中  no
        2   Widgets       done    yes

        """)
    #expect(ShowFormatter.width(of: "e\u{301}") == 1)
    #expect(ShowFormatter.width(of: "👍🏽") == 2)
    #expect(ShowFormatter.width(of: "🇩🇪x") == 3)
    #expect(ShowFormatter.pad("深色模式深色模式", 7) == "深色模…")
  }

  @Test func showTableAndJSON() {
    let features = [
      ResolvedFeature(
        id: "1", title: "Dunkelmodus", status: "geplant", description: "Dunkel.\nÜberall.",
        isFinished: false, votes: 3),
      ResolvedFeature(
        id: "22", title: String(repeating: "x", count: 50), status: nil, description: "",
        isFinished: true, votes: nil),
    ]
    #expect(
      ShowFormatter.table(features)
        == """
        ID  TITLE                                     STATUS   FINISHED
        1   Dunkelmodus                               geplant  no
            Dunkel. Überall.
        22  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…  -        yes

        """)
    #expect(ShowFormatter.table([]) == "No features.\n")
    // A file's control characters are shown, not obeyed by the terminal.
    let hostile = ResolvedFeature(
      id: "1\u{7}", title: "a\u{1B}[31mRED", status: "\u{9B}2J", description: "x\r\ny\tz\u{0}",
      isFinished: false, votes: nil)
    #expect(
      ShowFormatter.table([hostile])
        == #"""
        ID       TITLE           STATUS    FINISHED
        1\u0007  a\u001B[31mRED  \u009B2J  no
                 x y z\u0000

        """#)
    #expect(
      ShowFormatter.json(features, languages: ["de"], compatible: true)
        == #"{"languages":["de"],"compatible":true,"features":[{"id":"1","title":"Dunkelmodus","#
        + #""status":"geplant","description":"Dunkel.\nÜberall.","isFinished":false,"votes":3},"#
        + #"{"id":"22","title":"\#(String(repeating: "x", count: 50))","status":null,"#
        + #""description":"","isFinished":true,"votes":null}]}"# + "\n")
  }
}
