import Foundation
import Testing

/// The client-side modules (RoadmapFormat, VoteFirstAPI, FeatureVoting) ship inside iOS 15+ /
/// macOS 12+ apps: they import only Foundation (Glibc, Darwin and FoundationNetworking only under
/// `#if canImport`) and each other as docs/architecture.md allows, and use no API newer than
/// those platforms. Linux never checks availability, so this reads the sources.
@Suite struct ClientModuleAvailabilityTests {
  static var presentModules: [String] {
    ClientModuleRules.modules.map(\.name).filter {
      FileManager.default.fileExists(
        atPath: PackageFiles.packageRoot.appendingPathComponent("Sources/\($0)").path)
    }
  }

  @Test(arguments: presentModules)
  func moduleImportsOnlyWhatItMayAndUsesNothingNewer(_ module: String) throws {
    let folder = PackageFiles.packageRoot.appendingPathComponent("Sources/\(module)")
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    #expect(!files.isEmpty)
    var violations: [ClientModuleRules.Violation] = []
    for file in files {
      let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      violations += ClientModuleRules.violations(
        in: source, module: module, file: "Sources/\(module)/\(file)")
    }
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
  }

  @Test func roadmapFormatIsChecked() {
    #expect(Self.presentModules.contains("RoadmapFormat"))
  }

  // The mechanism itself.

  @Test func importRules() {
    let source = """
      import Foundation
      @preconcurrency import struct Foundation.Data
      #if canImport(FoundationNetworking)
        import FoundationNetworking
      #endif
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif
      import RoadmapFormat
      import Glibc
      #if os(Linux)
        import FoundationNetworking
      #endif
      import HTTPServer
      public import Synchronization
      """
    let found = ClientModuleRules.violations(in: source, module: "FeatureVoting", file: "x.swift")
    #expect(
      found.map(\.description) == [
        "x.swift:12: import Glibc outside #if canImport(Glibc)",
        "x.swift:14: import FoundationNetworking outside #if canImport(FoundationNetworking)",
        "x.swift:16: imports HTTPServer; FeatureVoting may import only Foundation and "
          + "RoadmapFormat, VoteFirstAPI",
        "x.swift:17: imports Synchronization; FeatureVoting may import only Foundation and "
          + "RoadmapFormat, VoteFirstAPI",
      ])
    let format = ClientModuleRules.violations(
      in: "import FeatureVoting", module: "RoadmapFormat", file: "y.swift")
    #expect(
      format.map(\.problem) == ["imports FeatureVoting; RoadmapFormat may import only Foundation"]
    )
  }

  static let newer: [String] = [
    "let timeout: Duration = .seconds(5)",
    "let clock = ContinuousClock()",
    "func wait<C: Clock>(on clock: C) {}",
    "try await Task.sleep(for: .seconds(1))",
    "let lock = Mutex(0)",
    "let lock = OSAllocatedUnfairLock()",
    "let pattern = #/[a-z]+/#",
    "let regex = try Regex(\"[a-z]+\")",
    "if let match = text.firstMatch(of: pattern) {}",
    "let url = URL(filePath: \"/tmp\")",
    "let file = base.appending(path: \"votes.json\")",
    "let file = base.appending(component: \"votes.json\")",
    "let text = url.path(percentEncoded: false)",
    "let dir = URL.documentsDirectory",
    "let code = Locale.current.language.languageCode",
    "let resource: LocalizedStringResource = \"x\"",
    "let size = bytes.formatted(.byteCount(style: .file))",
    "@Observable final class Model {}",
  ]

  @Test(arguments: newer)
  func newerAPIIsFound(_ code: String) {
    let found = ClientModuleRules.violations(in: code, module: "RoadmapFormat", file: "z.swift")
    #expect(found.count == 1, "\(code): \(found)")
    #expect(found.first?.problem.hasSuffix("newer than iOS 15 / macOS 12") == true)
  }

  static let allowed: [String] = [
    "/// Waits for a `Duration`, like `ContinuousClock` does.",
    "let text = \"a Duration of URL(filePath:) in a message\"",
    ##"let raw = #"Mutex and "Regex" in a raw string"#"##,
    "/* Duration /* nested */ Mutex */ let x = 1",
    "let directory = FileManager.default.temporaryDirectory",
    "let url = URL(fileURLWithPath: path).appendingPathComponent(\"a\")",
    "try await Task.sleep(nanoseconds: 1_000_000)",
    "let text = String(localized: \"Vote\")",
    "let stamp = Date.now.formatted(.iso8601)",
    "let (data, response) = try await URLSession.shared.data(for: request)",
    "let durationText = \"x\"; let myDuration = 1",
    "let timeout: Duration = .seconds(5)  // availability: guarded by if #available",
  ]

  @Test(arguments: allowed)
  func allowedCodeIsNotFlagged(_ code: String) {
    #expect(
      ClientModuleRules.violations(in: code, module: "RoadmapFormat", file: "z.swift").isEmpty)
  }

  @Test func multilineStringsAreNotCode() {
    let source = #"""
      let help = """
        Duration and Mutex are words here.
        """
      let other = 1
      let later: Duration = .zero
      """#
    let found = ClientModuleRules.violations(in: source, module: "RoadmapFormat", file: "m.swift")
    #expect(found.map(\.line) == [5])
  }
}
