import Foundation
import Testing

/// `Fuzz/run.sh` compiles each fuzz target with its sources outside the package. The HTTP
/// parser's target names its files one by one: the list must still name every file they need,
/// or the fuzzer stops building unnoticed (it did once, after the header encoding moved to a
/// file of its own). The Roadmap target takes the whole RoadmapFormat module; the Markdown
/// target, the web board's renderer and its escaper.
@Suite struct FuzzScriptTests {
  static let root = PackageFiles.packageRoot

  /// The `.swift` paths the script names.
  static func namedFiles() throws -> [String] {
    let script = try String(
      contentsOf: root.appendingPathComponent("Fuzz/run.sh"), encoding: .utf8)
    return script.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" })
      .map(String.init)
      .filter {
        ($0.hasPrefix("Sources/") || $0.hasPrefix("Fuzz/") || $0.hasPrefix("Tests/"))
          && $0.hasSuffix(".swift")
      }
  }

  static func typecheck(_ arguments: [String]) async throws -> Int32 {
    // About 6 s of CPU, but a minute or more of wall time beside the rest of the suite on two
    // loaded cores.
    try await Roadmapctl.runTool(
      "/usr/bin/env", ["swiftc", "-parse-as-library", "-typecheck"] + arguments,
      workingDirectory: root, timeout: .seconds(600))
  }

  @Test func theHTTPTargetsSourcesTypecheckTogether() async throws {
    let otherTargets =
      [
        "Fuzz/RoadmapFuzzTarget.swift", "Tests/TestProcess/UpstreamFeature.swift",
      ] + Self.markdownFiles
    let files = try Self.namedFiles().filter { !otherTargets.contains($0) }
    #expect(files.contains("Fuzz/ParserFuzzTarget.swift"))
    #expect(files.contains("Sources/HTTPServer/HTTPRequestParser.swift"))
    for file in files {
      #expect(
        FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path),
        "\(file)")
    }
    let status = try await Self.typecheck(["-module-name", "ParserFuzz"] + files)
    #expect(status == 0, "the sources Fuzz/run.sh lists do not typecheck together")
  }

  /// The files the Markdown target is built from.
  static let markdownFiles = [
    "Sources/WebBoard/Markdown.swift", "Sources/WebBoard/HTML.swift",
    "Fuzz/MarkdownFuzzTarget.swift",
  ]

  @Test func theMarkdownTargetTypechecksWithTheRenderer() async throws {
    let named = try Self.namedFiles()
    for file in Self.markdownFiles {
      #expect(named.contains(file), "Fuzz/run.sh no longer names \(file)")
    }
    let status = try await Self.typecheck(["-module-name", "MarkdownFuzz"] + Self.markdownFiles)
    #expect(status == 0, "Fuzz/MarkdownFuzzTarget.swift does not typecheck with the renderer")
  }

  @Test func theRoadmapTargetTypechecksWithItsModule() async throws {
    let named = try Self.namedFiles()
    #expect(named.contains("Fuzz/RoadmapFuzzTarget.swift"))
    #expect(named.contains("Tests/TestProcess/UpstreamFeature.swift"))
    let module = Self.root.appendingPathComponent("Sources/RoadmapFormat")
    let sources = try #require(FileManager.default.enumerator(atPath: module.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
      .map { "Sources/RoadmapFormat/\($0)" }
    #expect(sources.count > 10)
    let status = try await Self.typecheck(
      ["-module-name", "RoadmapFuzz", "-package-name", "RoadmapBridge"] + sources
        + ["Tests/TestProcess/UpstreamFeature.swift", "Fuzz/RoadmapFuzzTarget.swift"])
    #expect(status == 0, "Fuzz/RoadmapFuzzTarget.swift does not typecheck with RoadmapFormat")
  }
}
