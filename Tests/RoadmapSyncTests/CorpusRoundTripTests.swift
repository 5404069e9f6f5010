import Foundation
import RoadmapFormat
import Testing

@testable import RoadmapSync

/// Reads the real-world corpus in `../shared/corpus/roadmap-json/` (outside this package);
/// skipped where it is absent, as in a user's clone. Each problem it showed has a fixture of
/// our own in ``SyncFixtures``.
@Suite("Round trip over the shared corpus")
struct CorpusRoundTripTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/corpus/roadmap-json")

  static var files: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map {
      directory.appendingPathComponent($0)
    }
  }

  @Test(
    "every corpus file that loads comes back feature by feature",
    .enabled(if: !files.isEmpty, "../shared/corpus/roadmap-json is absent"))
  func corpus() throws {
    var loaded = 0
    for file in Self.files {
      let bytes = try [UInt8](Data(contentsOf: file))
      guard let document = try? RoadmapDocument.read(bytes, mode: .lenient),
        !document.features.isEmpty
      else { continue }
      loaded += 1
      let (back, losses, _) = try SyncFixtures.roundTrip(document.features)
      #expect(back == document.features, "\(file.lastPathComponent)")
      #expect(losses.isEmpty, "\(file.lastPathComponent): \(losses.entries)")
    }
    // The corpus holds at least the eight files that read.
    #expect(loaded >= 8)
  }
}
