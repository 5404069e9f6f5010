import Foundation
import Testing

/// What a clone holds must work in a clone: the benchmarks' own data generator writes files
/// that pass `validate --strict`, the same ones every time, and the scripts parse.
/// (The benchmarks themselves are not run here: they time things, see docs/testing.md.)
@Suite struct BenchmarkScriptTests {
  static let root = PackageFiles.packageRoot

  func generate(_ arguments: [String], in directory: TemporaryDirectory) async throws -> Int32 {
    try await Roadmapctl.runTool(
      "/usr/bin/env",
      ["python3", Self.root.appendingPathComponent("Benchmarks/gen_roadmap.py").path]
        + arguments, workingDirectory: directory.url)
  }

  @Test func generatedRoadmapsPassStrictValidationAndRepeat() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(try await generate(["300", "a.json"], in: directory) == 0)
    #expect(try await generate(["300", "b.json"], in: directory) == 0)
    #expect(try await generate(["300", "c.json", "--compact", "--seed", "3"], in: directory) == 0)
    let a = try Data(contentsOf: directory.url.appendingPathComponent("a.json"))
    let b = try Data(contentsOf: directory.url.appendingPathComponent("b.json"))
    #expect(a == b, "the same count and seed must give the same bytes")
    #expect(a.count > 300 * 500)

    let strict = try await Roadmapctl.run(
      ["validate", "--strict", "a.json", "c.json"], workingDirectory: directory.url)
    #expect(strict.exitCode == 0, "\(strict.stdoutText)")
    #expect(
      strict.stdoutText == "a.json: 300 features, no problems\nc.json: 300 features, no problems\n")
    let compatible = try await Roadmapctl.run(
      ["validate", "--compatible", "--languages", "en,de,ja", "c.json"],
      workingDirectory: directory.url)
    #expect(compatible.exitCode == 0, "\(compatible.stdoutText)")
  }

  @Test func generatorRejectsANegativeCount() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(try await generate(["-1", "x.json"], in: directory) == 2)
    #expect(
      !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("x.json").path))
  }

  static var scripts: [String] {
    let folder = root.appendingPathComponent("Benchmarks")
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".sh") }.sorted()
  }

  @Test(arguments: scripts)
  func scriptParses(_ name: String) async throws {
    let path = Self.root.appendingPathComponent("Benchmarks/\(name)").path
    #expect(try await Roadmapctl.runTool("/bin/bash", ["-n", path]) == 0)
  }

  /// Every script that reads ../shared checks first that it is there, so a clone runs it.
  @Test(arguments: scripts)
  func sharedFolderIsOnlyAnOptionalPeer(_ name: String) throws {
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("Benchmarks/\(name)"), encoding: .utf8)
    let code = text.split(separator: "\n").filter {
      !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#")
    }
    let usesShared = code.contains { $0.contains("shared/bench") || $0.contains("/shared") }
    guard usesShared else { return }
    #expect(
      code.contains { $0.contains("[ -x \"$") || $0.contains("[ -f \"$") },
      "\(name) reads ../shared but never checks that it exists")
    #expect(!text.contains("not found (set BENCH_DIR)"))
  }
}
