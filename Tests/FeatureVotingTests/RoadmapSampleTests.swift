import Foundation
import Testing

/// `Samples/RoadmapPackage/RoadmapBridgeVoter.swift` and the README's snippet compile against the
/// Roadmap package's voter protocol and feature model.
///
/// The Roadmap package cannot be built here (it needs SwiftUI), and its code is not ours to copy,
/// so the test writes a stand-in `Roadmap` module of our own with the shape COMPAT.md and issue 9
/// give: `FeatureVoter: Sendable` with its three methods, `RoadmapFeature` whose only public
/// members are `id`, `title`, `status`, `votes` (`isFinished` internal), and
/// `RoadmapConfiguration(roadmapJSONURL:voter:namespace:)`. It then typechecks the sample with
/// `swiftc` against that module and the built FeatureVoting module. Skipped where `swiftc` or the
/// built modules are not at hand (a test run from an installed toolchain-less bundle).
@Suite("Roadmap package sample")
struct RoadmapSampleTests {
  static let stub = """
    import Foundation

    /// Stand-in for the Roadmap package's voter protocol.
    public protocol FeatureVoter: Sendable {
      func fetch(for feature: RoadmapFeature) async -> Int
      func vote(for feature: RoadmapFeature) async -> Int?
      func unvote(for feature: RoadmapFeature) async -> Int?
    }

    /// Stand-in for the Roadmap package's feature: four public fields, the rest internal.
    public struct RoadmapFeature: Codable, Identifiable, Sendable {
      public let id: String
      public let title: String?
      public var status: String? = nil
      public var votes: Int? = nil
      var isFinished: Bool? = nil
      var description: String? = nil
    }

    /// Stand-in for the Roadmap package's configuration.
    public struct RoadmapConfiguration: Sendable {
      public let voter: any FeatureVoter

      public init(roadmapJSONURL: URL? = nil, voter: (any FeatureVoter)? = nil, namespace: String? = nil) {
        self.voter = voter ?? Unused()
      }
    }

    struct Unused: FeatureVoter {
      func fetch(for feature: RoadmapFeature) async -> Int { 0 }
      func vote(for feature: RoadmapFeature) async -> Int? { nil }
      func unvote(for feature: RoadmapFeature) async -> Int? { nil }
    }
    """

  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The directory holding the built `FeatureVoting.swiftmodule`, if any.
  static let modules: URL? = {
    var candidates: [URL] = []
    #if os(Linux)
      candidates.append(
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
          .deletingLastPathComponent().appendingPathComponent("Modules"))
    #endif
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(
        bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("Modules"))
      candidates.append(bundle.bundleURL.deletingLastPathComponent())
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/Modules"))
    return candidates.first {
      FileManager.default.fileExists(
        atPath: $0.appendingPathComponent("FeatureVoting.swiftmodule").path)
    }
  }()

  /// The `swiftc` on PATH, if any.
  static let swiftc: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    return path.split(separator: ":").map {
      URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc")
    }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  static var canCompile: Bool { modules != nil && swiftc != nil }

  /// The first Swift block of the section `heading` of `file` (the README's "Voting from the
  /// app" by default).
  static func readmeSnippet(
    _ heading: String = "## Voting from the app", in file: String = "README.md"
  ) throws -> String {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
    let section = try #require(readme.range(of: heading))
    let rest = readme[section.upperBound...]
    let open = try #require(rest.range(of: "```swift\n"))
    let close = try #require(rest.range(of: "\n```", range: open.upperBound..<rest.endIndex))
    return String(rest[open.upperBound..<close.lowerBound])
  }

  /// Builds the stand-in module in `directory` and typechecks `files` against it (as a
  /// library, or as a program whose top-level code is the first file's when not `library`).
  static func typecheck(
    _ files: [URL], in directory: URL, library: Bool = true
  ) async throws -> (Int32, String) {
    let swiftc = try #require(swiftc)
    let modules = try #require(modules)
    let stubFile = directory.appendingPathComponent("Roadmap.swift")
    try stub.write(to: stubFile, atomically: true, encoding: .utf8)
    let (built, _, buildErrors) = try await HelperBinary.run(
      swiftc,
      [
        "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", "Roadmap",
        stubFile.path, "-emit-module-path",
        directory.appendingPathComponent("Roadmap.swiftmodule").path,
      ])
    #expect(built == 0, "\(buildErrors)")
    let (status, _, errors) = try await HelperBinary.run(
      swiftc,
      ["-typecheck"] + (library ? ["-parse-as-library"] : [])
        + ["-swift-version", "6", "-I", directory.path, "-I", modules.path]
        + files.map(\.path))
    return (status, errors)
  }

  @Test(
    "the sample and the README snippet typecheck against the Roadmap package's shape",
    .enabled(if: canCompile, "needs swiftc and the built FeatureVoting module"))
  func sampleCompiles() async throws {
    let directory = try temporaryDirectory()
    let snippet = directory.appendingPathComponent("App.swift")
    try Self.readmeSnippet().write(to: snippet, atomically: true, encoding: .utf8)
    let sample = Self.packageRoot.appendingPathComponent(
      "Samples/RoadmapPackage/RoadmapBridgeVoter.swift")
    let (status, errors) = try await Self.typecheck([sample, snippet], in: directory)
    #expect(status == 0, "\(errors)")
  }

  @Test(
    "the README's VoteFirst board snippet typechecks: VoteFirstVoter through the sample wrapper",
    .enabled(if: canCompile, "needs swiftc and the built FeatureVoting module"))
  func voteFirstSnippetCompiles() async throws {
    let directory = try temporaryDirectory()
    let snippet = directory.appendingPathComponent("Board.swift")
    try Self.readmeSnippet("## A self-hosted VoteFirst board").write(
      to: snippet, atomically: true, encoding: .utf8)
    let sample = Self.packageRoot.appendingPathComponent(
      "Samples/RoadmapPackage/RoadmapBridgeVoter.swift")
    let (status, errors) = try await Self.typecheck([sample, snippet], in: directory)
    #expect(status == 0, "\(errors)")
    // Without the wrapper, as the README once put it, it does not compile: VoteFirstVoter is
    // FeatureVoting's FeatureVoter, not the Roadmap package's.
    let direct = try Self.readmeSnippet("## A self-hosted VoteFirst board")
      .replacingOccurrences(of: "RoadmapBridgeVoter(voter: voter)", with: "voter")
    try direct.write(to: snippet, atomically: true, encoding: .utf8)
    let (directStatus, _) = try await Self.typecheck([sample, snippet], in: directory)
    #expect(directStatus != 0)
  }

  @Test(
    "Samples/RoadmapPackage/README.md's configuration typechecks with the sample",
    .enabled(if: canCompile, "needs swiftc and the built FeatureVoting module"))
  func sampleReadmeSnippetCompiles() async throws {
    let directory = try temporaryDirectory()
    let snippet = directory.appendingPathComponent("App.swift")
    try Self.readmeSnippet(
      "## 3. Pass it to the configuration", in: "Samples/RoadmapPackage/README.md"
    ).write(to: snippet, atomically: true, encoding: .utf8)
    let sample = Self.packageRoot.appendingPathComponent(
      "Samples/RoadmapPackage/RoadmapBridgeVoter.swift")
    let (status, errors) = try await Self.typecheck([sample, snippet], in: directory)
    #expect(status == 0, "\(errors)")
  }

  @Test(
    "docs/voting.md's VoteFirstVoter snippet typechecks with the imports it shows",
    .enabled(if: canCompile, "needs swiftc and the built FeatureVoting module"))
  func votingDocSnippetCompiles() async throws {
    let directory = try temporaryDirectory()
    let snippet = directory.appendingPathComponent("main.swift")
    let text = try Self.readmeSnippet("## `VoteFirstVoter`", in: "docs/voting.md")
    try text.write(to: snippet, atomically: true, encoding: .utf8)
    let (status, errors) = try await Self.typecheck([snippet], in: directory, library: false)
    #expect(status == 0, "\(errors)")
    // Without `import VoteFirstAPI`, as the doc once showed it, the client is not found.
    try text.replacingOccurrences(of: "import VoteFirstAPI\n", with: "")
      .write(to: snippet, atomically: true, encoding: .utf8)
    let (without, _) = try await Self.typecheck([snippet], in: directory, library: false)
    #expect(without != 0)
  }

  @Test(
    "the check fails for a voter that does not fit the protocol",
    .enabled(if: canCompile, "needs swiftc and the built FeatureVoting module"))
  func mismatchFails() async throws {
    let directory = try temporaryDirectory()
    let sample = try String(
      contentsOf: Self.packageRoot.appendingPathComponent(
        "Samples/RoadmapPackage/RoadmapBridgeVoter.swift"),
      encoding: .utf8)
    // Reading the internal isFinished, as a careless port would, must not compile.
    let broken = sample.replacingOccurrences(
      of: "votes: feature.votes)", with: "votes: feature.votes, isFinished: feature.isFinished)")
    #expect(broken != sample)
    let file = directory.appendingPathComponent("Broken.swift")
    try broken.write(to: file, atomically: true, encoding: .utf8)
    let (status, errors) = try await Self.typecheck([file], in: directory)
    #expect(status != 0)
    #expect(errors.contains("isFinished"))
  }
}
