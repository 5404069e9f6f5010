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

/// `backup` reads the boards again after the counters: an admin's edit between the two reads
/// (a ref given to a feature moves its votes to another counter) made a backup whose restore
/// showed that feature with no votes.
@Suite struct BackupConsistencyTests {
  static func boards(next: Int64) -> BoardBackup {
    BoardBackup(
      projects: [], items: [], features: [],
      sequences: [BoardBackup.Sequence(project: "demo-app", kind: "feature", next: next)])
  }

  /// Boards read in turn from `reads`, the last one again once they run out.
  final class Reads: @unchecked Sendable {
    private let lock = NSLock()
    private var reads: [BoardBackup]
    private(set) var count = 0
    init(_ reads: [BoardBackup]) { self.reads = reads }
    func next() -> BoardBackup {
      lock.withLock {
        count += 1
        return reads.count > 1 ? reads.removeFirst() : reads[0]
      }
    }
  }

  static func withStore(_ body: (SQLiteVoteStore, URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("backup-consistency-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteVoteStore(directory: directory.appendingPathComponent("data"))
    _ = try await store.apply(
      CounterMutation(
        namespace: "demo-app", key: "feature1", delta: 1, voter: nil,
        createIfMissing: CounterCreation(namespace: "demo-app", key: "feature1")))
    try await body(store, directory)
    await store.close()
  }

  @Test func aFileIsReadAgainWhenTheBoardsChangedMeanwhile() async throws {
    try await Self.withStore { store, directory in
      // Changed between the first read and the one after the counters; the same after that.
      let reads = Reads([Self.boards(next: 1), Self.boards(next: 2)])
      let file = directory.appendingPathComponent("backup.json").path
      let context = CommandContext(stdout: .capturing(), stderr: .capturing())
      let done = try await BackupCommand.backUp(
        store, to: file, context: context, readBoards: { reads.next() })
      #expect(reads.count == 4)
      #expect(done.boards == Self.boards(next: 2))
      let backup = try JSONDecoder().decode(
        StoreBackup.self, from: try Data(contentsOf: URL(fileURLWithPath: file)))
      #expect(backup.boards == Self.boards(next: 2))
    }
  }

  @Test func boardsThatKeepChangingLeaveTheFileAsItWas() async throws {
    try await Self.withStore { store, directory in
      let reads = Reads((1...10).map { Self.boards(next: $0) })
      let file = directory.appendingPathComponent("backup.json")
      try Data("old".utf8).write(to: file)
      let context = CommandContext(stdout: .capturing(), stderr: .capturing())
      do throws(CommandError) {
        _ = try await BackupCommand.backUp(
          store, to: file.path, context: context, readBoards: { reads.next() })
        Issue.record("expected the backup to give up")
      } catch {
        #expect(error.message.contains("the boards changed while the backup was read"))
        #expect(error.message.contains("3 times in a row"))
      }
      #expect(reads.count == 6)
      #expect(try String(contentsOf: file, encoding: .utf8) == "old")
    }
  }

  @Test func standardOutputEndsWithAnErrorWhenTheBoardsChanged() async throws {
    try await Self.withStore { store, _ in
      let reads = Reads([Self.boards(next: 1), Self.boards(next: 2)])
      let stdout = TextOutput.capturing()
      let context = CommandContext(stdout: stdout, stderr: .capturing())
      do throws(CommandError) {
        _ = try await BackupCommand.backUp(
          store, to: "-", context: context, readBoards: { reads.next() })
        Issue.record("expected an error")
      } catch {
        #expect(error.message.hasSuffix("run the backup again."))
      }
      #expect(!stdout.text.isEmpty)
    }
  }
}

/// Bytes handed over piece by piece.
private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [UInt8] = []

  func append(_ bytes: [UInt8]) { lock.withLock { stored += bytes } }

  var bytes: [UInt8] { lock.withLock { stored } }
}
