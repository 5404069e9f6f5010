import Foundation
import Testing

@testable import RoadmapFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A document mapped from a file (pages handed back as the reader passes them) must validate
/// exactly as the same bytes in an array: the same diagnostics, positions, counts and features.
@Suite("Mapped documents")
struct DocumentBytesTests {
  /// Writes `bytes` to a fresh temporary file and maps it.
  static func mapped(_ bytes: [UInt8]) throws -> DocumentBytes {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("document-bytes-\(UUID().uuidString).json")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let descriptor = open(url.path, O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    return try #require(DocumentBytes(mapping: descriptor))
  }

  /// Validates `bytes` from an array and mapped (handing pages back every `stride` bytes) and
  /// expects the same report.
  static func compare(
    _ bytes: [UInt8], options: ValidationOptions = .init(), previous: [UInt8]? = nil,
    stride: Int = 1
  ) throws {
    let validator = RoadmapValidator(options: options)
    let expected = validator.validate(bytes, previous: previous)
    let document = try mapped(bytes)
    #expect(document.isMapped)
    let report = validator.validate(document, previous: previous, releaseStride: stride)
    #expect(report.diagnostics == expected.diagnostics)
    #expect(report.featureCount == expected.featureCount)
    #expect(report.features == expected.features)
    // The pages handed back are read from the file again, unchanged.
    #expect(document.bytes == bytes)
  }

  static let fixtures: [String] = [
    CorpusProblemFixtures.localizedObjects, CorpusProblemFixtures.trailingCommas,
    CorpusProblemFixtures.missingCommaAfterDescription, CorpusProblemFixtures.translationSlips,
    CorpusProblemFixtures.plannedButFinished, CorpusProblemFixtures.noPlainDescription,
    CorpusProblemFixtures.statusNotLocalizedEverywhere,
  ]

  @Test("every corpus-problem fixture gives the array's report")
  func fixturesMatch() throws {
    for fixture in Self.fixtures {
      try Self.compare(Array(fixture.utf8))
      try Self.compare(Array(fixture.utf8), options: ValidationOptions(compatible: true))
    }
  }

  @Test("a document of many pages, with problems throughout, gives the array's report")
  func largeDocumentMatches() throws {
    let bytes = ParallelParseTests.document(features: 3000)
    #expect(bytes.count > 64 * 4096)
    try Self.compare(bytes)
    try Self.compare(
      bytes, options: ValidationOptions(languages: ["en", "de"], statuses: ["planned", "Done"]))
    try Self.compare(bytes, previous: ParallelParseTests.document(features: 3100))
  }

  @Test("a document parsed in two halves while handing pages back gives the array's report")
  func twoHalvesMatch() throws {
    let bytes = ParallelParseTests.document(features: 40_000)
    #expect(bytes.count >= ParseOutcome.parallelThreshold)
    try Self.compare(bytes, stride: 64 * 1024)
  }

  @Test("mutated documents give the array's report")
  func mutationsMatch() throws {
    var generator = SplitMix64(seed: 13)
    let clean = ParallelParseTests.document(features: 200)
    let insertions = Array(",{}[]\"\n:x\\é".utf8)
    for _ in 0..<60 {
      var bytes = clean
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        if Bool.random(using: &generator) {
          bytes.insert(insertions.randomElement(using: &generator)!, at: index)
        } else {
          bytes.remove(at: index)
        }
      }
      try Self.compare(bytes, stride: 4096)
    }
  }

  @Test("duplicate ids, escaped ids and invalid counter keys are found without rereading ids")
  func idRules() throws {
    let json = """
      [
        {"id": "a b"}, {"id": "1"}, {"id": "\\u0031"}, {"id": "x"}, {"id": "caf\\u00e9"},
        {"id": "café"}, {"id": "\(String(repeating: "k", count: 70))"}, {"id": ""},
        {"id": "ok-1"}, {"id": "ok-1"}
      ]
      """
    let bytes = Array(json.utf8)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.codes.filter { $0 == "duplicate-id" }.count == 3)
    #expect(report.codes.filter { $0 == "invalid-counter-key" }.count == 3)
    try Self.compare(bytes)
  }

  @Test("a directory, a pipe and an empty file are not mapped")
  func notMapped() throws {
    let directory = open(FileManager.default.temporaryDirectory.path, O_RDONLY)
    try #require(directory >= 0)
    defer { close(directory) }
    #expect(DocumentBytes(mapping: directory) == nil)

    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    #expect(DocumentBytes(mapping: ends[0]) == nil)

    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("document-bytes-empty-\(UUID().uuidString).json")
    try Data().write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let empty = open(url.path, O_RDONLY)
    try #require(empty >= 0)
    defer { close(empty) }
    #expect(DocumentBytes(mapping: empty) == nil)
    #expect(DocumentBytes(mapping: -1) == nil)
  }

  @Test("bytes in an array stay in the array and ignore page hand-backs")
  func arrayBacked() {
    let bytes = Array(#"[{"id": "1"}]"#.utf8)
    let document = DocumentBytes(bytes)
    #expect(!document.isMapped)
    document.releasePages(0..<bytes.count)
    #expect(document.bytes == bytes)
    #expect(document.count == bytes.count)
  }

  @Test("known lines are the reader's line at each feature")
  func knownLines() {
    let bytes = ParallelParseTests.document(features: 50)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.knownLines.count == 50)
    for known in report.knownLines {
      let newlines = bytes[..<known.offset].count { $0 == 0x0A }
      #expect(known.line == newlines + 1)
      #expect(bytes[known.offset] == UInt8(ascii: "{"))
    }
  }
}
