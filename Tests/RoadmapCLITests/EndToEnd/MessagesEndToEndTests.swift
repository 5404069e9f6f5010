import Foundation
import Testing

/// What a new user meets (issue 8): every message names the right file and feature, says what
/// happened, and help says what the commands do. Run as the real binary.
@Suite struct MessagesEndToEndTests {
  func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    try await Roadmapctl.run(arguments, workingDirectory: directory.url)
  }

  /// Item 1: a related place in the previous version names the previous file, in every format.
  @Test func relatedPlaceInThePreviousVersionNamesItsOwnFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("previous.json", Fixtures.previous)
    try directory.write("next.json", Fixtures.withoutThree)

    let human = try await run(
      ["validate", "next.json", "--previous", "previous.json"], in: directory)
    #expect(human.exitCode == 1)
    #expect(
      human.stdoutText.contains("previous.json:4:11: note: feature \"3\" in the previous version\n")
    )
    #expect(!human.stdoutText.contains("next.json:4:11"))

    let github = try await run(
      ["validate", "next.json", "--previous", "previous.json", "--format", "github"], in: directory)
    #expect(
      github.stdoutText.contains("%0Aprevious.json:4:11: feature \"3\" in the previous version"))

    let json = try await run(
      ["validate", "next.json", "--previous", "previous.json", "--format", "json"], in: directory)
    #expect(
      json.stdoutText.contains(
        #""related":[{"file":"previous.json","path":"/2/id","line":4,"column":11,"#
          + #""message":"feature \"3\" in the previous version"}]"#))
  }

  /// Item 5: features are named by id and 1-based position; JSON output lists related places.
  @Test func featuresAreNumberedFromOneAndJSONListsRelatedPlaces() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "dup.json",
      """
      [
        { "id": "a", "title": "First" },
        { "id": "a", "title": "Second" }
      ]

      """)
    let human = try await run(["validate", "dup.json"], in: directory)
    #expect(human.exitCode == 1)
    #expect(human.stdoutText.contains(#"id "a" is already used by feature #1;"#))
    #expect(!human.stdoutText.contains("feature 0"))
    #expect(human.stdoutText.contains("dup.json:2:11: note: first feature with id \"a\"\n"))

    let json = try await run(["validate", "dup.json", "--format", "json"], in: directory)
    let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
    let file = (decoded?["files"] as? [[String: Any]])?.first
    let diagnostic = (file?["diagnostics"] as? [[String: Any]])?.first
    let related = (diagnostic?["related"] as? [[String: Any]])?.first
    #expect(related?["file"] as? String == "dup.json")
    #expect(related?["path"] as? String == "/0/id")
    #expect(related?["line"] as? Int == 2)
    #expect(related?["column"] as? Int == 11)
    #expect(related?["message"] as? String == "first feature with id \"a\"")

    try directory.write(
      "languages.json",
      """
      [
        { "id": "one", "localizedTitle": [{ "language": "en", "value": "One" }] },
        { "id": "two", "localizedTitle": [{ "language": "de", "value": "Zwei" }] }
      ]

      """)
    let languages = try await run(
      ["validate", "languages.json", "--languages", "en"], in: directory)
    #expect(languages.stdoutText.contains(#"feature "two" (#2) is not translated"#))
  }

  /// Item 2: a valid roadmap served as text/html is a warning, not an HTML-page error.
  @Test func jsonServedAsHTMLIsAWarningAndIsChecked() async throws {
    let server = try await TestHTTPServer.start()
    defer { server.stop() }
    let url = server.url("/good-as-html.json")
    let validated = try await Roadmapctl.run(["validate", url])
    #expect(validated.exitCode == 0, "\(validated.stdoutText)")
    #expect(validated.stdoutText.contains("[html-content-type]"))
    #expect(validated.stdoutText.contains("warning: The server sends this JSON with Content-Type"))
    #expect(!validated.stdoutText.contains("html-body"))
    #expect(validated.stdoutText.hasSuffix("\(url): 3 features, 1 warning\n"))

    let strict = try await Roadmapctl.run(["validate", url, "--strict"])
    #expect(strict.exitCode == 1)

    let shown = try await Roadmapctl.run(["show", url])
    #expect(shown.exitCode == 0)
    #expect(shown.stdoutText.contains("Dark mode"))
    #expect(shown.stderrText.contains("[html-content-type]"))

    // A real page is still an error, whatever its type.
    let page = try await Roadmapctl.run(["validate", server.url("/page.html")])
    #expect(page.exitCode == 1)
    #expect(page.stdoutText.contains("[html-body]"))
  }

  /// Item 4: `show` says on stderr when a field is not in the language asked for.
  @Test func showSaysWhichLanguageEachFieldResolvedTo() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("chinese.json", Fixtures.chinese)
    try directory.write("good.json", Fixtures.good)

    // Traditional Chinese is not given the Simplified text.
    let tw = try await run(["show", "chinese.json", "--language", "zh-TW"], in: directory)
    #expect(tw.exitCode == 0)
    #expect(tw.stdoutText.contains("Dark mode"))
    #expect(
      tw.stderrText
        == "chinese.json: note: --language zh-TW: the title of feature \"1\" (#1) has no "
        + "\"zh-TW\" translation; the plain field is shown (translations in the file: \"en\", "
        + "\"zh-Hans\")\n")

    // A region finds its script: zh-CN (a browser's tag) reads the zh-Hans text.
    let cn = try await run(["show", "chinese.json", "--language", "zh-CN"], in: directory)
    #expect(cn.stdoutText.contains("深色模式"))
    #expect(
      cn.stderrText
        == "chinese.json: note: --language zh-CN: the title of feature \"1\" (#1) is shown "
        + "in \"zh-Hans\"\n")

    let fallback = try await run(
      ["show", "chinese.json", "--language", "zh-Hans-CN"], in: directory)
    #expect(fallback.stdoutText.contains("深色模式"))
    #expect(
      fallback.stderrText
        == "chinese.json: note: --language zh-Hans-CN: the title of feature \"1\" (#1) is shown "
        + "in \"zh-Hans\"\n")

    let french = try await run(["show", "good.json", "--language", "fr"], in: directory)
    #expect(french.exitCode == 0)
    #expect(
      french.stderrText
        == "good.json: note: --language fr: the titles and statuses of all 3 features have no "
        + "\"fr\" translation; the plain fields are shown (translations in the file: \"en\", "
        + "\"de\")\n"
        + "good.json: note: --language fr: the description of feature \"1\" (#1) has no \"fr\" "
        + "translation; the plain field is shown (translations in the file: \"en\", \"de\")\n")

    let exact = try await run(["show", "good.json", "--language", "de"], in: directory)
    #expect(exact.stderrText.isEmpty)
  }

  /// The notes of a file in thousands of languages, asked for in thousands: one line per
  /// outcome as before, each naming at most ten languages, in time linear in the features
  /// (a scan per feature and per language took 20,000 of each minutes and gigabytes).
  @Test(.timeLimit(.minutes(5))) func showNotesOfThousandsOfLanguages() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 20_000
    let features = (0..<count).map {
      #"{"id":"f\#($0)","title":"t","localizedTitle":[{"language":"l\#($0)","value":"v"}]}"#
    }
    try directory.write("many.json", "[" + features.joined(separator: ",\n") + "]")
    let asked = (1..<count).map { "l\($0)" } + ["x"]
    let shown = try await run(
      ["show", "many.json", "--language", asked.joined(separator: ",")], in: directory)
    #expect(shown.exitCode == 0)
    let notes = shown.stderrText.split(separator: "\n").map(String.init)
      .filter { $0.contains("note: --language") }
    // Every feature but f1, whose title is in the language asked for first.
    #expect(notes.count == count - 1)
    let prefix = "many.json: note: --language l1,l2,l3,l4,l5,l6,l7,l8,l9,l10,… (20000 in all): "
    #expect(
      notes.first == prefix
        + "the title of feature \"f0\" (#1) has no translation in any of the 20000 languages asked for; the plain field is shown (translations in the file: \"l0\")"
    )
    #expect(
      notes.last == prefix + "the title of feature \"f19999\" (#20000) is shown in \"l19999\"")

    // The languages in the file are named ten at most.
    let plain = try await run(["show", "many.json", "--language", "x"], in: directory)
    let line = try #require(plain.stderrText.split(separator: "\n").last { $0.contains("note:") })
    #expect(
      line.hasSuffix(
        "(translations in the file: \"l0\", \"l1\", \"l2\", \"l3\", \"l4\", \"l5\", \"l6\", \"l7\", \"l8\", \"l9\", … (20000 in all))"
      ), "\(line)")
    #expect(line.contains("the titles of all 20000 features have no \"x\" translation"))
  }

  /// Item 6: a binary file is said to be not text, with no line of mojibake.
  @Test func binaryFileIsNotAText() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
    var generator = SystemRandomNumberGenerator()
    png += (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    try Data(png).write(to: directory.url.appendingPathComponent("image.json"))
    let result = try await run(["validate", "image.json"], in: directory)
    #expect(result.exitCode == 1)
    #expect(result.stdoutText.hasPrefix("image.json:1:1: error: this is not a text file: "))
    #expect(result.stdoutText.contains("[not-text]"))
    #expect(!result.stdoutText.contains("is not a JSON value"))
    #expect(result.stdoutText.split(separator: "\n").count == 2, "no excerpt: \(result.stdoutText)")

    let shown = try await run(["show", "image.json"], in: directory)
    #expect(shown.exitCode == 1)
    #expect(shown.stderrText.contains("this is not a text file"))
  }

  /// Item 9: help says whether the command creates the store.
  @Test func helpSaysWhetherTheStoreIsCreated() async throws {
    let export = try await Roadmapctl.run(["help", "votes", "export"])
    #expect(export.exitCode == 0)
    #expect(!export.stdoutText.contains("created if needed"))
    #expect(export.stdoutText.contains("The store must already exist"))
    #expect(try await Roadmapctl.run(["help", "serve"]).stdoutText.contains("created if needed"))
    #expect(
      try await Roadmapctl.run(["help", "votes", "import"]).stdoutText.contains(
        "without a store gets a new one"))

    // And export does what its help says: a missing store is an error, nothing is created.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let missing = directory.url.appendingPathComponent("none")
    let result = try await Roadmapctl.run(["votes", "export", "--data-dir", missing.path])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.hasPrefix("Error: no vote store in "))
    #expect(!FileManager.default.fileExists(atPath: missing.path))
  }
}
