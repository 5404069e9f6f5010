import Foundation
import Testing
import VoteStore

/// Issue 7, item 12 (store side): an export streams in pieces of about 64 KiB, so its memory
/// does not grow with the store, and what it writes reads back as the same export.
@Suite struct StreamedExportTests {
  /// Collects the pieces an export hands over.
  final class Pieces: @unchecked Sendable {
    private let lock = NSLock()
    private var pieces: [[UInt8]] = []
    func append(_ bytes: [UInt8]) { lock.withLock { pieces.append(bytes) } }
    var all: [[UInt8]] { lock.withLock { pieces } }
  }

  @Test(arguments: StoreKind.allCases)
  func theStreamIsThePiecewiseSameExport(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      // 3,000 counters, one in three with voters: well over one 64 KiB piece.
      try await withThrowingTaskGroup(of: Void.self) { group in
        for task in 0..<8 {
          group.addTask {
            for index in stride(from: task, to: 3000, by: 8) {
              let key = "feature-\(index)"
              _ = try await store.apply(
                CounterMutation(
                  namespace: "app.example", key: key, delta: 1,
                  voter: index.isMultiple(of: 3) ? "voter-\(index)" : nil,
                  createIfMissing: CounterCreation(namespace: "app.example", key: key)))
            }
          }
        }
        try await group.waitForAll()
      }
      let pieces = Pieces()
      let summary = try await store.exportAll { pieces.append($0) }
      #expect(summary == ExportSummary(counters: 3000, voters: 1000))
      let all = pieces.all
      #expect(all.count > 5, "\(all.count) pieces")
      #expect(all.allSatisfy { $0.count < 80 << 10 }, "every piece is about 64 KiB")
      let streamed = try VoteExport.read(all.flatMap { $0 }).get()
      #expect(streamed == (try await store.exportAll()))
    }
  }

  @Test(arguments: StoreKind.allCases)
  func namesThatNeedEscapingSurviveAndAnEmptyStoreIsAnEmptyExport(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let empty = Pieces()
      #expect(
        try await store.exportAll { empty.append($0) } == ExportSummary(counters: 0, voters: 0))
      let emptyExport = try VoteExport.read(empty.all.flatMap { $0 }).get()
      #expect(emptyExport.counters.isEmpty && emptyExport.version == 2)

      // Names an old store may hold (the store itself does not check names).
      let odd = "a\"b\\c\nd\u{1}é/f"
      _ = try await store.create(CounterCreation(namespace: "app.example", key: odd, value: 2))
      let pieces = Pieces()
      _ = try await store.exportAll { pieces.append($0) }
      let tree = try JSONSerialization.jsonObject(with: Data(pieces.all.flatMap { $0 }))
      let counters = (tree as? [String: Any])?["counters"] as? [[String: Any]]
      let record = counters?.first?["record"] as? [String: Any]
      #expect(record?["key"] as? String == odd)
      #expect(record?["value"] as? Int == 2)
    }
  }

  @Test func aFailingWriterEndsTheExportWithIO() async throws {
    try await StoreKind.sqlite.withStore { store, _ in
      _ = try await store.create(CounterCreation(namespace: "app.example", key: "feature1"))
      struct Broken: Error {}
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.exportAll { _ in throw Broken() }
      }
      #expect(failure?.kind == .io)
      #expect(failure?.message.hasPrefix("cannot write the export") == true)
    }
  }
}
