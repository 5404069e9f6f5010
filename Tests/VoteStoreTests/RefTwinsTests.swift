import Foundation
import Testing
import VoteStore

/// A store made before refs in another Unicode form were refused may hold two features whose
/// refs are one ref in two forms (`é` precomposed and `e` + U+0301; `K` and the Kelvin sign),
/// each with its own counter. The store keeps them apart (it compares bytes); its own backup
/// and export must restore and import, and the pairs must be findable.
@Suite struct RefTwinsTests {
  static let composed = "\u{E9}t\u{E9}"
  static let decomposed = "e\u{301}te\u{301}"

  static func feature(_ id: Int64, ref: String) -> BoardFeatureRow {
    BoardFeatureRow(
      project: "app.one", id: id, ref: ref, counterKey: "feature" + ref, board: "roadmap",
      stage: nil, tags: [], search: "", comments: 0, createdAt: 1, doc: "{}")
  }

  static func counter(_ key: String, id: Int64, voters: [String]) -> VoteExport.Counter {
    VoteExport.Counter(
      record: CounterRecord(
        id: id, namespace: "app.one", key: key, value: Int64(voters.count), enableReset: false,
        updateLowerBound: -1, updateUpperBound: 1, createdAt: 1, updatedAt: 1),
      voters: voters)
  }

  /// Bug: a backup of such a store was refused by `restore` ("features[0] and features[1] of
  /// project app.one have the same ref").
  @Test func aBackupWithRefsInTwoFormsHasNoProblem() {
    for (one, other) in [(Self.composed, Self.decomposed), ("K1", "\u{212A}1")] {
      let backup = BoardBackup(
        projects: [BoardProjectRow(project: "app.one", settings: "{}", createdAt: 1)],
        items: [], features: [Self.feature(1, ref: one), Self.feature(2, ref: other)],
        sequences: [])
      #expect(backup.firstProblem == nil)
      var same = backup
      same.features[1].ref = one
      #expect(same.firstProblem?.contains("have the same ref") == true)
    }
  }

  /// Bug: an export of such a store was refused by `votes import` and `restore` ("the counter
  /// appears twice").
  @Test func anExportWithKeysInTwoFormsImports() throws {
    let export = VoteExport(
      version: 1,
      counters: [
        Self.counter("feature" + Self.composed, id: 1, voters: ["ann", "bob"]),
        Self.counter("feature" + Self.decomposed, id: 2, voters: ["ann", "carl"]),
      ])
    #expect(export.problems().isEmpty)
    let bytes = try JSONEncoder().encode(export)
    let read = try VoteExport.read(Array(bytes)).get()
    #expect(
      read.counters.map { Array($0.record.key.utf8) }
        == export.counters.map { Array($0.record.key.utf8) })
    var twice = export
    twice.counters[1].record.key = "feature" + Self.composed
    #expect(twice.problems().map(\.message) == ["the counter appears twice (first as counters[0])"])
  }

  @Test(arguments: StoreKind.allCases)
  func theStoreFindsThePairs(kind: StoreKind) async throws {
    try await kind.withStore { store, handle in
      let boards: any BoardStore =
        if let sqlite = store as? SQLiteVoteStore {
          try SQLiteBoardStore(sharing: sqlite)
        } else {
          try PostgresBoardStore(connectionString: handle.connectionString!, poolSize: 2)
        }
      let twins = try await boards.write { tables in
        _ = try tables.createProject(
          BoardProjectRow(project: "app.one", settings: "{}", createdAt: 1))
        try tables.put(Self.feature(1, ref: Self.composed))
        try tables.put(Self.feature(2, ref: "plain"))
        try tables.put(Self.feature(3, ref: Self.decomposed))
        return try tables.refTwins()
      }
      await boards.close()
      #expect(twins.map(\.project) == ["app.one"])
      #expect(twins.first?.features.map(\.id) == [1, 3])
      #expect(RefTwins.spelled(Self.decomposed) == #"e\u{301}te\u{301}"#)
      #expect(RefTwins.spelled(Self.composed) == #"\u{E9}t\u{E9}"#)
    }
  }

  /// Bug: `values(namespace:keys:)` answered `[String: Int64]`, which takes the two forms for
  /// one key (one count for both, or one of them missing), and the SQLite store's memory of
  /// counters answered one form's count for the other. It answers ``CounterValues`` now,
  /// whose keys compare by bytes, as the stores compare them; so does the memory.
  @Test(arguments: StoreKind.allCases)
  func eachFormKeepsItsOwnCount(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let keys = ["feature" + Self.composed, "feature" + Self.decomposed, "K1", "\u{212A}1"]
      let counts: [Int64] = [2, 3, 1, 4]
      for (key, count) in zip(keys, counts) {
        for _ in 0..<count {
          _ = try await store.apply(
            CounterMutation(
              namespace: "app.one", key: key, delta: 1,
              createIfMissing: CounterCreation(namespace: "app.one", key: key)))
        }
      }
      // Compared by position: Swift's `==` takes each pair of keys for one.
      for asked in [[0, 1, 2, 3], [3, 2, 1, 0], [1], [0], [3], [2]] {
        // Twice: the second answer from memory where the store keeps one.
        for _ in 0..<2 {
          let values = try await store.values(namespace: "app.one", keys: asked.map { keys[$0] })
          #expect(values.count == asked.count)
          for index in asked {
            #expect(values[keys[index]] == counts[index], "\(RefTwins.spelled(keys[index]))")
          }
        }
        for index in asked {
          let record = try await store.record(namespace: "app.one", key: keys[index])
          #expect(record?.value == counts[index], "\(RefTwins.spelled(keys[index]))")
          #expect(record.map { Array($0.key.utf8) } == Array(keys[index].utf8))
        }
      }
    }
  }

  /// Merging moves every vote: anonymous ones added, voters joined, a voter on both once.
  @Test(arguments: StoreKind.allCases)
  func mergingCountsAVoterOnBothOnce(kind: StoreKind) async throws {
    try await kind.withStore { store, handle in
      let target = "feature" + Self.composed
      let source = "feature" + Self.decomposed
      for (key, voter) in [
        (target, "ann"), (target, "bob"), (target, nil), (source, "ann"), (source, "carl"),
        (source, nil), (source, nil),
      ] {
        _ = try await store.apply(
          CounterMutation(
            namespace: "app.one", key: key, delta: 1, voter: voter,
            createIfMissing: CounterCreation(namespace: "app.one", key: key)))
      }
      let boards: any BoardStore =
        if let sqlite = store as? SQLiteVoteStore {
          try SQLiteBoardStore(sharing: sqlite)
        } else {
          try PostgresBoardStore(connectionString: handle.connectionString!, poolSize: 2)
        }
      let value = try await boards.write { tables in
        try tables.mergeVotes("app.one", from: source, into: target, now: 5)
      }
      await boards.close()
      // 3 anonymous votes and ann, bob, carl.
      #expect(value == 6)
      let left = try await store.exportAll().counters
      #expect(left.count == 1)
      #expect(left.first.map { Array($0.record.key.utf8) } == Array(target.utf8))
      #expect(left.first?.record.value == 6 && left.first?.voters.count == 3)
    }
  }
}
