import Foundation
import RoadmapFormat
import TestProcess
import Testing

/// The real-world corpus in `../shared/corpus/roadmap-json/` (other people's files, read in
/// place and never copied; see SOURCES.md there). Skipped only when `../shared` is absent.
@Suite(
  "Real-world corpus",
  .enabled(if: Corpus.available, "skipped: ../shared/corpus/roadmap-json is absent"))
struct CorpusTests {
  static let folder = Corpus.folder

  /// What each file really is, found by reading it (and by JSONDecoder, what the app uses).
  enum Outcome: Sendable {
    /// Loads in both readings; validate reports no error, only these warnings.
    case loads(features: Int, warnings: Set<String>)
    /// Validate fails with `code` first at `line`; `decoderAccepts` says whether the app
    /// (JSONDecoder) still reads it; `lenientFeatures` is what lenient reading keeps.
    case broken(code: String, line: Int, decoderAccepts: Bool, lenientFeatures: Int)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var outcome: Outcome
    var testDescription: String { file }
  }

  static let cases: [Case] = [
    Case(
      file: "FPST-08__H-rspielzentraleJSON__FeatureVoter.json",
      outcome: .loads(
        features: 18, warnings: ["inconsistent-languages", "empty-value", "surrounding-whitespace"])
    ),
    Case(
      file: "FPST-08__H-rspielzentraleJSON__FeatureVoter@00af73d.json",
      outcome: .loads(features: 15, warnings: ["planned-status-flagged-finished"])),
    Case(
      file: "FPST-08__H-rspielzentraleJSON__FeatureVoter@4d6b2a3.json",
      outcome: .broken(
        code: "localized-not-array", line: 6, decoderAccepts: false, lenientFeatures: 0)),
    Case(
      file: "FPST-08__H-rspielzentraleJSON__FeatureVoter@54a416f.json",
      outcome: .broken(code: "trailing-comma", line: 66, decoderAccepts: true, lenientFeatures: 11)),
    Case(
      file: "asiliuk__BsuirScheduleApp__roadmap.json", outcome: .loads(features: 6, warnings: [])),
    Case(
      file: "asiliuk__BsuirScheduleApp__roadmap@00c0f40.json",
      outcome: .loads(features: 3, warnings: [])),
    Case(
      file: "vdhamer__Photo-Club-Hub__RoadmapView_Roadmap@164b6d5.json",
      outcome: .broken(code: "missing-comma", line: 62, decoderAccepts: false, lenientFeatures: 8)),
    Case(
      file: "vdhamer__Photo-Club-Hub__RoadmapView_Roadmap@49983d9.json",
      outcome: .loads(features: 7, warnings: [])),
    Case(
      file: "vdhamer__Photo-Club-Hub__RoadmapView_Roadmap@cea5c3b.json",
      outcome: .loads(features: 5, warnings: [])),
    Case(
      file: "vdhamer__Photo-Club-Hub__VoteOnRoadmapView_Roadmap.json",
      outcome: .loads(features: 8, warnings: [])),
  ]

  static func bytes(_ file: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
  }

  @Test("every corpus file has an expected outcome here")
  func everyFileCovered() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".json") }
    #expect(Set(files) == Set(Self.cases.map(\.file)))
  }

  @Test("each file has its real outcome", arguments: cases)
  func outcome(_ item: Case) throws {
    let bytes = try Self.bytes(item.file)
    let report = RoadmapValidator().validate(bytes)
    let upstream = upstreamDecodes(bytes)
    switch item.outcome {
    case .loads(let count, let warnings):
      #expect(!report.hasErrors, "\(report.diagnostics)")
      #expect(Set(report.codes) == warnings)
      #expect(report.featureCount == count)
      let compatible = try RoadmapDocument.read(bytes, mode: .compatible)
      let lenient = try RoadmapDocument.read(bytes, mode: .lenient)
      #expect(compatible.features.count == count)
      #expect(lenient.features == compatible.features)
      let decoded = try #require(upstream, "JSONDecoder rejects \(item.file)")
      try expectSameAsApp(compatible.features, decoded)
      // Canonical write and read back gives the same features.
      let rewritten = try RoadmapDocument.read(
        RoadmapWriter.write(compatible.features), mode: .compatible)
      #expect(rewritten.features == compatible.features)
    case .broken(let code, let line, let decoderAccepts, let lenientFeatures):
      #expect(report.hasErrors)
      let first = try #require(report.diagnostics.first { $0.severity == .error })
      #expect(first.code == code)
      #expect(first.line == line)
      #expect((upstream != nil) == decoderAccepts)
      let compatible = try? RoadmapDocument.read(bytes, mode: .compatible)
      #expect((compatible != nil) == decoderAccepts)
      if !decoderAccepts {
        let error = #expect(throws: RoadmapReadError.self) {
          try RoadmapDocument.read(bytes, mode: .compatible)
        }
        #expect(error?.diagnostic.line == line)
      }
      #expect(try RoadmapDocument.read(bytes, mode: .lenient).features.count == lenientFeatures)
    }
  }

  /// Our features equal what the app decodes, and resolve as the app resolves them in every
  /// language the file has, plus English and simplified Chinese.
  func expectSameAsApp(_ ours: [RoadmapFeature], _ app: [UpstreamFeature]) throws {
    #expect(ours.count == app.count)
    var languages: Set<String> = ["en", "zh-Hans", "de"]
    for (feature, upstream) in zip(ours, app) {
      #expect(feature.id == upstream.id)
      #expect(feature.title == upstream.title)
      #expect(feature.status == upstream.status)
      #expect(feature.description == upstream.description)
      #expect(feature.isFinished == upstream.isFinished)
      #expect(feature.votes == upstream.votes)
      #expect(feature.localizedTitle?.map(\.value) == upstream.localizedTitle?.map(\.value))
      for items in [feature.localizedTitle, feature.localizedStatus, feature.localizedDescription] {
        languages.formUnion(items?.map(\.language) ?? [])
      }
    }
    for language in languages {
      let resolver = LanguageResolver.roadmapCompatible(localization: language)
      for (feature, upstream) in zip(ours, app) {
        let resolved = resolver.resolve(feature)
        let expected = upstream.resolved(language)
        #expect(resolved.title == expected.title, "\(language) \(feature.id)")
        #expect(resolved.status == expected.status, "\(language) \(feature.id)")
        #expect(resolved.description == expected.description, "\(language) \(feature.id)")
        #expect(resolved.isFinished == (upstream.isFinished ?? false))
      }
    }
  }
}

/// Where the shared corpus is, relative to the package root.
enum Corpus {
  static let folder = packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared/corpus/roadmap-json")
  static let available = FileManager.default.fileExists(atPath: folder.path)
}
