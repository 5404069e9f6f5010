import Foundation
import Testing

/// `validate` and `show` over real-world Roadmap JSON.
///
/// Reads `../shared/corpus/roadmap-json/` relative to the package root (other people's files, never
/// copied here); where it is absent (a user's clone) these tests are disabled by their trait. Every
/// problem the corpus shows also has a fixture of our own, checked by `problemsOfOurOwn`, which
/// always runs.
@Suite struct CorpusEndToEndTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/roadmap-json")

  static var corpusFiles: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
      .map { corpus.appendingPathComponent($0).path }
  }

  @Test(
    .enabled(if: !corpusFiles.isEmpty, "reads ../shared/corpus/roadmap-json (absent in a clone)"))
  func everyCorpusFileGetsAConsistentVerdict() async throws {
    let files = Self.corpusFiles
    let result = try await Roadmapctl.run(["validate", "--format", "json"] + files)
    #expect(result.exitCode == 0 || result.exitCode == 1)
    #expect(result.stderr.isEmpty)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
    let reports = try #require(object?["files"] as? [[String: Any]])
    #expect(reports.count == files.count)
    #expect(result.exitCode == (reports.allSatisfy { $0["valid"] as? Bool == true } ? 0 : 1))
    for report in reports {
      let path = try #require(report["path"] as? String)
      let valid = try #require(report["valid"] as? Bool)
      let alone = try await Roadmapctl.run(["validate", path, "--format", "github"])
      #expect(alone.exitCode == (valid ? 0 : 1), "\(path)")
      let shown = try await Roadmapctl.run(["show", path, "--format", "json"])
      #expect(shown.exitCode == 0, "lenient show loads what it can: \(path)")
      if valid {
        let compatible = try await Roadmapctl.run(["show", path, "--compatible"])
        #expect(compatible.exitCode == 0, "\(path)")
      }
    }
  }

  /// The problems the corpus shows, in files of our own. A trailing comma is an error (jq, Python,
  /// browsers and apps before iOS 17 reject it) though today's JSONDecoder, and so the Roadmap
  /// package on current systems, accepts it.
  @Test(arguments: [
    (Fixtures.trailingComma, "trailing-comma", false),
    (Fixtures.localizedObject, "localized-not-array", true),
    (Fixtures.missingComma, "missing-comma", true),
  ])
  func problemsOfOurOwn(_ document: String, code: String, appRejects: Bool) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", document)
    let result = try await Roadmapctl.run(
      ["validate", "roadmap.json", "--format", "json"], workingDirectory: directory.url)
    #expect(result.exitCode == 1)
    #expect(result.stdoutText.contains(#""code":"\#(code)","severity":"error""#))
    let compatible = try await Roadmapctl.run(
      ["show", "roadmap.json", "--compatible"], workingDirectory: directory.url)
    #expect(compatible.exitCode == (appRejects ? 1 : 0))
    #expect(compatible.stderrText.contains("[\(code)]"))
  }
}
