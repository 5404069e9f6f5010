import Foundation
import Testing

/// `Fuzz/run.sh` compiles the parser's sources outside the package, from a list of its own: the
/// list must still name every file they need, or the fuzzer stops building unnoticed (it did
/// once, after the header encoding moved to a file of its own).
@Suite struct FuzzScriptTests {
  @Test func theFuzzTargetsSourcesTypecheckTogether() async throws {
    let root = PackageFiles.packageRoot
    let script = try String(
      contentsOf: root.appendingPathComponent("Fuzz/run.sh"), encoding: .utf8)
    let files = script.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" })
      .map(String.init)
      .filter { ($0.hasPrefix("Sources/") || $0.hasPrefix("Fuzz/")) && $0.hasSuffix(".swift") }
    #expect(files.contains("Fuzz/ParserFuzzTarget.swift"))
    #expect(files.contains("Sources/HTTPServer/HTTPRequestParser.swift"))
    for file in files {
      #expect(
        FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file)")
    }
    let status = try await Roadmapctl.runTool(
      "/usr/bin/env",
      ["swiftc", "-parse-as-library", "-typecheck", "-module-name", "ParserFuzz"] + files,
      workingDirectory: root)
    #expect(status == 0, "the sources Fuzz/run.sh lists do not typecheck together")
  }
}
