import Foundation
import Testing
import VoteStore

@testable import RoadmapCLI

/// `roadmapctl backup` writes the counters as the store reads them, nested in the document
/// (``NestedJSON``), instead of building the whole document in memory first.
@Suite struct BackupStreamTests {
  struct Inner: Codable {
    var list: [Int]
    var empty: [String]
    var name: String
  }

  struct Outer: Codable {
    var a: Int
    var inner: Inner
  }

  /// Nested one level down, in any pieces, a document reads as JSONEncoder writes it there.
  @Test func aNestedDocumentIsWhatTheEncoderWritesThereInAnyPieces() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let inner = Inner(list: [1, 2], empty: [], name: "line\nbreak")
    let expected = try encoder.encode(Outer(a: 1, inner: inner))
    let document = Array(try encoder.encode(inner))
    for size in [1, 2, 3, 7, document.count] {
      var written: [UInt8] = Array("{\n  \"a\" : 1,\n  \"inner\" : ".utf8)
      let nested = NestedJSON { written += $0 }
      var start = 0
      while start < document.count {
        try nested.write(Array(document[start..<min(start + size, document.count)]))
        start += size
      }
      written += Array("\n}".utf8)
      #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
  }

  /// The document `backup` writes, head and streamed counters, is the one `restore` reads.
  @Test func theStreamedDocumentReadsAsTheBackupOfTheStore() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("backup-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteVoteStore(directory: directory)
    for key in ["feature1", "feature2"] {
      _ = try await store.apply(
        CounterMutation(
          namespace: "app.example", key: key, delta: 1, voter: key == "feature1" ? "v1" : nil,
          createIfMissing: CounterCreation(namespace: "app.example", key: key)))
    }
    let boards = BoardBackup(
      projects: [], items: [], features: [],
      sequences: [BoardBackup.Sequence(project: "demo-app", kind: "feature", next: 3)])
    let collected = Collected()
    let summary = try await BackupCommand.write(store, head: try BackupCommand.head(boards)) {
      collected.append($0)
    }
    let expected = try await store.exportAll()
    await store.close()
    #expect(summary.counters == 2)
    let text = String(decoding: collected.bytes, as: UTF8.self)
    #expect(text.hasPrefix("{\n  \"boards\" : {\n"))
    #expect(text.hasSuffix("\n  }\n}\n"))
    let backup = try JSONDecoder().decode(StoreBackup.self, from: Data(collected.bytes))
    #expect(backup.format == StoreBackup.formatName)
    #expect(backup.version == 1)
    #expect(backup.boards == boards)
    #expect(backup.votes == expected)
  }
}

/// Bytes handed over piece by piece.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [UInt8] = []

  func append(_ bytes: [UInt8]) { lock.withLock { stored += bytes } }

  var bytes: [UInt8] { lock.withLock { stored } }
}
