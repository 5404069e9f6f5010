import Foundation
import Testing

@testable import RoadmapFormat

/// Large arrays are parsed in two halves at once; the result must be exactly the one-pass result.
@Suite("Parallel parse")
struct ParallelParseTests {
  /// A pretty-printed roadmap with problems on both sides of the middle.
  static func document(features: Int) -> [UInt8] {
    var list: [RoadmapFeature] = []
    for index in 0..<features {
      var feature = RoadmapFeature(
        id: index % 17 == 0 ? "dup" : "\(index)", title: "Feature \(index)",
        status: ["planned", "Done", "In Progress ", "geplant"][index % 4],
        localizedTitle: index % 3 == 0
          ? [
            LocalizedValue(language: "en", value: "F"),
            LocalizedValue(language: ["de", "fr", "zh-Hans", "en"][index % 4], value: "F"),
          ]
          : nil,
        votes: index % 11 == 0 ? -1 : index, isFinished: index % 5 == 0 ? true : nil)
      if index % 13 == 0 { feature.extra = JSONObject([("isfinished", .bool(true))]) }
      list.append(feature)
    }
    return RoadmapWriter.write(list)
  }

  static func compare(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
      let single = ParseOutcome.parse(buffer, collectWarnings: true, parallelThreshold: .max)
      let split = ParseOutcome.parse(buffer, collectWarnings: true, parallelThreshold: 0)
      #expect(split.featureCount == single.featureCount)
      #expect(split.features == single.features)
      #expect(split.records.map(\.index) == single.records.map(\.index))
      #expect(split.records.map(\.idOffset) == single.records.map(\.idOffset))
      #expect(split.fatal == single.fatal)
      #expect(split.languageNames == single.languageNames)
      let one = ParseOutcome.diagnostics(
        single.issues, suppressed: single.suppressed, in: buffer, checkpoints: single.checkpoints)
      let two = ParseOutcome.diagnostics(
        split.issues, suppressed: split.suppressed, in: buffer, checkpoints: split.checkpoints)
      #expect(one == two)
    }
  }

  @Test("a document with problems on both sides gives the one-pass result")
  func problemsBothSides() throws {
    let bytes = Self.document(features: 400)
    let split = try #require(bytes.withUnsafeBufferPointer { ParseOutcome.splitPoint(in: $0) })
    // The split is a top-level element (not an item of a localized array), so both halves work.
    let single = bytes.withUnsafeBufferPointer {
      ParseOutcome.parse($0, collectWarnings: true, parallelThreshold: .max)
    }
    #expect(single.records.contains { $0.offset == split.element })
    Self.compare(bytes)
  }

  @Test("the per-code limit applies to the whole document")
  func limitAcrossHalves() {
    let json =
      "[\n" + (0..<3000).map { #"  {"id": "\#($0)", "votes": -1}"# }.joined(separator: ",\n")
      + "\n]"
    Self.compare(Array(json.utf8))
    let split = Array(json.utf8).withUnsafeBufferPointer {
      ParseOutcome.parse($0, collectWarnings: true, parallelThreshold: 0)
    }
    #expect(split.issues.count == 1000)
    #expect(split.suppressed["negative-votes"]?.count == 2000)
  }

  @Test("syntax errors before or after the split, and a split inside a nested array")
  func errorsAndFalseSplits() {
    var generator = SplitMix64(seed: 3)
    let clean = Self.document(features: 60)
    let insertions = Array(",{}[]\"\n:x".utf8)
    for _ in 0..<150 {
      var bytes = clean
      let index = Int.random(in: 0..<bytes.count, using: &generator)
      bytes.insert(insertions.randomElement(using: &generator)!, at: index)
      Self.compare(bytes)
    }
    // Objects in nested arrays look like element starts too.
    let nested =
      "[\n  {\"id\": \"1\", \"x\": [\n    {\"a\": 1},\n    {\"b\": 2},\n    {\"c\": 3}\n  ]}\n]"
    Self.compare(Array(nested.utf8))
  }

  /// Languages are interned by name: a file that names tens of thousands of them (one feature
  /// with them all, or one each) reads in time linear in them, in one pass and in two halves
  /// (a scan of every language so far per item took 20,000 of them 31 s, 60,000 minutes).
  @Test("tens of thousands of languages read in linear time", .timeLimit(.minutes(3)))
  func manyLanguages() throws {
    let count = 60_000
    let one = RoadmapFeature(
      id: "all", title: "All",
      localizedTitle: (0..<count).map { LocalizedValue(language: "x-\($0)", value: "t\($0)") })
    let each = (0..<count).map {
      RoadmapFeature(
        id: "\($0)", title: "F",
        localizedTitle: [
          LocalizedValue(language: "en", value: "E"),
          LocalizedValue(language: "x-\($0 % (count / 2))", value: "t"),
        ])
    }
    for features in [[one], each] {
      let bytes = RoadmapWriter.write(features)
      Self.compare(bytes)
      let single = bytes.withUnsafeBufferPointer {
        ParseOutcome.parse($0, collectWarnings: true, parallelThreshold: .max)
      }
      let names = single.languageNames
      #expect(Set(names).count == names.count)
      #expect(names.count == (features.count == 1 ? count : count / 2 + 1))
      #expect(single.features == features)
    }
    let report = RoadmapValidator().validate(RoadmapWriter.write([one]))
    #expect(!report.diagnostics.contains { $0.severity == .error })
    let resolved = LanguageResolver.fallback(preferredLanguages: ["x-59999"]).resolve(one)
    #expect(resolved.title == "t59999")
  }
}
