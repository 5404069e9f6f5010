import Foundation
import RoadmapFormat
import Testing

/// `roadmapctl show` and `roadmapctl schema`, run as the real binary.
@Suite struct ShowAndSchemaEndToEndTests {
  static func workspace() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("good.json", Fixtures.good)
    try directory.write("chinese.json", Fixtures.chinese)
    try directory.write("finished.json", Fixtures.finishedAsString)
    try directory.write("broken.json", Fixtures.trailingComma)
    return directory
  }

  func show(_ arguments: [String], in directory: TemporaryDirectory, stdin: String? = nil)
    async throws -> ProcessResult
  {
    try await Roadmapctl.run(
      ["show"] + arguments, stdin: stdin.map { Array($0.utf8) }, workingDirectory: directory.url)
  }

  @Test func tableInEnglishByDefault() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let result = try await show(["good.json"], in: directory)
    #expect(result.exitCode == 0)
    #expect(
      result.stdoutText == """
        ID  TITLE         STATUS       FINISHED
        1   Dark mode     planned      no
            A dark look for every screen.
        2   Widgets       in-progress  no
        3   Offline mode  finished     yes

        """)
    #expect(result.stderrText.isEmpty)
  }

  @Test func jsonEscapesLineSeparatorsAndControlCharacters() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // In the file: "\u2028" escapes and a tab, all of which `show` must write escaped again.
    try directory.write(
      "separators.json",
      #"[{"id": "1", "title": "Line\u2028break\u2029end", "description": "a\tb \"q\" \u0008"}]"#)
    let result = try await show(["separators.json", "--format", "json"], in: directory)
    #expect(result.exitCode == 0)
    #expect(result.stdoutText.contains(#""title":"Line\u2028break\u2029end""#))
    #expect(result.stdoutText.contains(#""description":"a\tb \"q\" \b""#))
    #expect(!result.stdoutText.unicodeScalars.contains("\u{2028}"))
    let decoded = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
    let feature = (decoded?["features"] as? [[String: Any]])?.first
    #expect(feature?["title"] as? String == "Line\u{2028}break\u{2029}end")
    #expect(feature?["description"] as? String == "a\tb \"q\" \u{8}")
  }

  @Test func germanTable() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let result = try await show(["good.json", "--language", "de"], in: directory)
    #expect(result.exitCode == 0)
    #expect(result.stdoutText.contains("1   Dunkelmodus    geplant    no\n"))
    #expect(result.stdoutText.contains("Ein dunkles Aussehen für jeden Bildschirm."))
    #expect(result.stdoutText.contains("2   Widgets        in Arbeit  no\n"))
    #expect(result.stdoutText.contains("3   Offline-Modus  fertig     yes\n"))
  }

  @Test func compatibleResolvesExactlyAsTheRoadmapPackage() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let fallback = try await show(
      ["chinese.json", "--language", "zh-Hans-CN", "--format", "json"], in: directory)
    #expect(fallback.exitCode == 0)
    #expect(fallback.stdoutText.contains(#""title":"深色模式""#))
    let exact = try await show(
      ["chinese.json", "--language", "zh", "--compatible", "--format", "json"], in: directory)
    #expect(exact.exitCode == 0)
    #expect(
      exact.stdoutText
        == #"{"languages":["zh"],"compatible":true,"features":[{"id":"1","title":"Dark mode","#
        + #""status":null,"description":"","isFinished":false,"votes":null}]}"# + "\n")
    let hans = try await show(
      ["chinese.json", "--language", "zh-Hans", "--compatible", "--format=json"], in: directory)
    #expect(hans.stdoutText.contains(#""title":"深色模式""#))
  }

  @Test func compatibleRejectsWhatTheAppRejects() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let rejected = try await show(["finished.json", "--compatible"], in: directory)
    #expect(rejected.exitCode == 1)
    #expect(rejected.stdout.isEmpty)
    #expect(rejected.stderrText.contains("finished.json:2:"))
    #expect(rejected.stderrText.contains("shows an empty roadmap"))
    let lenient = try await show(["finished.json"], in: directory)
    #expect(lenient.exitCode == 0)
    #expect(lenient.stderrText.contains("finished.json:2:"))
  }

  @Test func compatibleCallsWhatTheAppLoadsWithAWarning() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    // A trailing comma: the app loads the file, so it is a warning, as validate --compatible
    // says (it was printed as an error while show went on and exited 0).
    let shown = try await show(["broken.json", "--compatible"], in: directory)
    #expect(shown.exitCode == 0)
    #expect(shown.stderrText.contains("warning: trailing comma"))
    #expect(!shown.stderrText.contains("error:"))
  }

  @Test func standardInputAndErrors() async throws {
    let directory = try Self.workspace()
    defer { directory.remove() }
    let piped = try await show(["-"], in: directory, stdin: Fixtures.good)
    #expect(piped.exitCode == 0)
    #expect(piped.stdoutText.hasPrefix("ID  TITLE"))
    let missing = try await show(["nope.json"], in: directory)
    #expect(missing.exitCode == 1)
    #expect(missing.stderrText == "Error: cannot read 'nope.json': no such file\n")
    let noFile = try await show([], in: directory)
    #expect(noFile.exitCode == 64)
    #expect(noFile.stderrText.hasPrefix("Error: Missing expected argument '<file>'."))
    let several = try await show(
      ["good.json", "--compatible", "--language", "de,en"], in: directory)
    #expect(several.exitCode == 64)
    let badFormat = try await show(["good.json", "--format", "yaml"], in: directory)
    #expect(badFormat.exitCode == 64)
    let empty = try await show(["good.json", "--language", ","], in: directory)
    #expect(empty.exitCode == 64)
  }

  @Test func urlThatIsNotJSON() async throws {
    let server = try await TestHTTPServer.start()
    defer { server.stop() }
    let result = try await Roadmapctl.run(["show", server.url("/page.html")])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.contains("[html-body]"))
    let good = try await Roadmapctl.run(["show", server.url("/good.json"), "--language", "de"])
    #expect(good.exitCode == 0)
    #expect(good.stdoutText.contains("Dunkelmodus"))
  }

  @Test func schemaPrintsTheJSONSchema() async throws {
    let result = try await Roadmapctl.run(["schema"])
    #expect(result.exitCode == 0)
    #expect(result.stderr.isEmpty)
    #expect(
      result.stdoutText.trimmingCharacters(in: .newlines)
        == RoadmapSchema.json.trimmingCharacters(in: .newlines))
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
    #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    let extra = try await Roadmapctl.run(["schema", "extra"])
    #expect(extra.exitCode == 64)
    #expect(extra.stderrText.hasPrefix("Error: Unexpected argument 'extra'."))
  }
}
