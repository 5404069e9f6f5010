import Foundation
import Testing

@testable import VoteStore

/// How `SQLiteVoteStore.submitBatch` groups a batch into one unit per counter, whatever the
/// number of counters, and answers each vote with its own counter's count.
@Suite struct BatchUnitTests {
  static let ns = "app.example"

  /// A batch over more counters than are grouped one by one (past
  /// `SQLiteVoteStore.linearUnits`, through the table) answers each vote in order with its own
  /// counter's running count, and groups exactly as a plain first-seen grouping does.
  @Test func aBatchOverManyCountersIsGroupedAndAnsweredInOrder() async throws {
    for distinct in [1, 2, SQLiteVoteStore.linearUnits, SQLiteVoteStore.linearUnits + 1, 20] {
      let mutations = (0..<(distinct * 3)).map { index in
        // Interleaved, and two namespaces sharing key names.
        CounterMutation(
          namespace: index % 2 == 0 ? Self.ns : "other.example",
          key: "key\((index * 7) % distinct)",
          delta: 1, voter: index % 5 == 0 ? "voter\(index)" : nil,
          createIfMissing: CounterCreation(
            namespace: index % 2 == 0 ? Self.ns : "other.example",
            key: "key\((index * 7) % distinct)"))
      }
      var expected: [[Int]] = []
      var firstSeen: [String: Int] = [:]
      for (index, mutation) in mutations.enumerated() {
        let name = mutation.namespace + "/" + mutation.key
        if let unit = firstSeen[name] {
          expected[unit].append(index)
        } else {
          firstSeen[name] = expected.count
          expected.append([index])
        }
      }
      #expect(SQLiteVoteStore.counterUnits(mutations) == expected, "\(distinct) counters")
    }

    #expect(SQLiteVoteStore.counterUnits([]).isEmpty)

    let directory = try TemporaryDirectory("batch-units")
    defer { directory.remove() }
    let store = try SQLiteVoteStore(directory: directory.url)
    let mutations = (0..<60).map { index in
      CounterMutation(
        namespace: Self.ns, key: "key\(index % 15)", delta: 1,
        voter: index % 4 == 0 ? "voter\(index / 4)" : nil,
        createIfMissing: CounterCreation(namespace: Self.ns, key: "key\(index % 15)"))
    }
    let results = await withCheckedContinuation { continuation in
      store.submitBatch(mutations) { continuation.resume(returning: $0) }
    }
    try #require(results.count == mutations.count)
    var running: [String: Int64] = [:]
    for (mutation, result) in zip(mutations, results) {
      running[mutation.key, default: 0] += 1
      let record = try result.get().record
      #expect(record?.key == mutation.key)
      #expect(record?.value == running[mutation.key])
    }
    for key in 0..<15 {
      #expect(try await store.record(namespace: Self.ns, key: "key\(key)")?.value == 4)
    }
    await store.close()
  }
}
