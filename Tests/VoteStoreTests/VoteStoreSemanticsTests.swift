import Foundation
import Testing
import VoteStore

/// The protocol's semantics, run against every store kind with the same test bodies.
@Suite struct VoteStoreSemanticsTests {
  static let ns = "app.example"

  @Test(arguments: StoreKind.allCases)
  func createReturnsNilWhenTheCounterExists(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let made = try #require(
        try await store.create(
          CounterCreation(
            namespace: Self.ns, key: "feature1", value: 5, enableReset: true,
            updateLowerBound: -2, updateUpperBound: 3)))
      #expect(made.value == 5)
      #expect(made.enableReset)
      #expect(made.updateLowerBound == -2 && made.updateUpperBound == 3)
      #expect(made.createdAt == made.updatedAt)
      #expect(try await store.record(namespace: Self.ns, key: "feature1") == made)

      let again = try await store.create(CounterCreation(namespace: Self.ns, key: "feature1"))
      #expect(again == nil)
      #expect(try await store.record(namespace: Self.ns, key: "feature1")?.value == 5)
      #expect(try await store.record(namespace: "other.ns", key: "feature1") == nil)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func createClampsANegativeStartAtZero(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let made = try await store.create(CounterCreation(namespace: Self.ns, key: "k", value: -4))
      #expect(made?.value == 0)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func applyWithoutVoterAddsAndClampsAtZero(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(CounterCreation(namespace: Self.ns, key: "k", value: 1))
      var result = try await store.apply(CounterMutation(namespace: Self.ns, key: "k", delta: 2))
      #expect(result.outcome == .applied)
      #expect(result.record?.value == 3)
      #expect(result.created == false)

      result = try await store.apply(CounterMutation(namespace: Self.ns, key: "k", delta: -5))
      #expect(result.outcome == .applied)
      #expect(result.record?.value == 0)

      result = try await store.apply(CounterMutation(namespace: Self.ns, key: "k", delta: -1))
      #expect(result.outcome == .atZero)
      #expect(result.record?.value == 0)
      #expect(try await store.record(namespace: Self.ns, key: "k")?.value == 0)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func applyToAMissingKey(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let missing = try await store.apply(CounterMutation(namespace: Self.ns, key: "k", delta: 1))
      #expect(missing == MutationResult(outcome: .missing, record: nil))
      #expect(try await store.record(namespace: Self.ns, key: "k") == nil)

      let hit = try await store.apply(
        CounterMutation(
          namespace: Self.ns, key: "k", delta: 1, checkBounds: true,
          createIfMissing: CounterCreation(namespace: Self.ns, key: "k")))
      #expect(hit.outcome == .applied)
      #expect(hit.created)
      #expect(hit.record?.value == 1)
      #expect(hit.record?.updateLowerBound == -1)
      #expect(hit.record?.updateUpperBound == 1)

      // [-1, 1] bounds: the Roadmap package's unvote works on a key made by a hit.
      let unvote = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "k", delta: -1, checkBounds: true))
      #expect(unvote.outcome == .applied)
      #expect(unvote.record?.value == 0)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func outOfBoundsChangesNothing(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(
        CounterCreation(
          namespace: Self.ns, key: "k", value: 10, updateLowerBound: 0, updateUpperBound: 1))
      for delta: Int64 in [-1, 2, 100] {
        let result = try await store.apply(
          CounterMutation(namespace: Self.ns, key: "k", delta: delta, checkBounds: true))
        #expect(result.outcome == .outOfBounds)
        #expect(result.record?.value == 10)
      }
      // Without checkBounds the bounds do not apply.
      let free = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "k", delta: 100))
      #expect(free.record?.value == 110)
      #expect(try await store.statistics().updates == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func votersAreIdempotentAndUnvoteOnlyTheirOwnVote(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let create = CounterCreation(namespace: Self.ns, key: "k")
      func vote(_ voter: String, _ delta: Int64) async throws -> MutationResult {
        try await store.apply(
          CounterMutation(
            namespace: Self.ns, key: "k", delta: delta, voter: voter, checkBounds: true,
            createIfMissing: create))
      }
      #expect(try await vote("alice", 1).outcome == .applied)
      let again = try await vote("alice", 1)
      #expect(again.outcome == .alreadyVoted)
      #expect(again.record?.value == 1)
      #expect(try await vote("bob", 1).record?.value == 2)

      let carol = try await vote("carol", -1)
      #expect(carol.outcome == .notVoted)
      #expect(carol.record?.value == 2)

      let aliceOut = try await vote("alice", -1)
      #expect(aliceOut.outcome == .applied)
      #expect(aliceOut.record?.value == 1)
      #expect(try await vote("alice", -1).outcome == .notVoted)
      #expect(try await vote("alice", 1).record?.value == 2)
      #expect(try await store.statistics().voters == 2)

      // An anonymous change is independent of the voter set.
      let anonymous = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "k", delta: 1))
      #expect(anonymous.record?.value == 3)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aSetBelowTheVotersForgetsThemSoTheyMayVoteAgain(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.apply(
        CounterMutation(
          namespace: Self.ns, key: "k", delta: 1, voter: "v",
          createIfMissing: CounterCreation(namespace: Self.ns, key: "k")))
      _ = try await store.set(namespace: Self.ns, key: "k", value: 0, createIfMissing: nil)
      #expect(try await store.statistics().voters == 0)
      let out = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "k", delta: -1, voter: "v"))
      #expect(out.outcome == .notVoted)
      #expect(out.record?.value == 0)
      let back = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "k", delta: 1, voter: "v"))
      #expect(back.outcome == .applied)
      #expect(back.record?.value == 1)
      // A set at or above the voters keeps them; the rest of the count is anonymous.
      _ = try await store.set(namespace: Self.ns, key: "k", value: 5, createIfMissing: nil)
      #expect(try await store.statistics().voters == 1)
      let anonymous = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "k", delta: -10))
      #expect(anonymous.record?.value == 1)
      #expect(
        try await store.apply(CounterMutation(namespace: Self.ns, key: "k", delta: 1, voter: "v"))
          .outcome == .alreadyVoted)
    }
  }

  /// Issue 7, item 6: an anonymous decrement never takes a voter's vote.
  @Test(arguments: StoreKind.allCases)
  func anAnonymousDecrementTakesOnlyAnonymousVotes(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let create = CounterCreation(namespace: Self.ns, key: "k")
      func step(_ delta: Int64, _ voter: String? = nil) async throws -> MutationResult {
        try await store.apply(
          CounterMutation(
            namespace: Self.ns, key: "k", delta: delta, voter: voter, checkBounds: true,
            createIfMissing: create))
      }
      #expect(try await step(1, "alice").record?.value == 1)
      let anonymousDown = try await step(-1)
      #expect(anonymousDown.outcome == .atZero)
      #expect(anonymousDown.record?.value == 1)
      let again = try await step(1, "alice")
      #expect(again.outcome == .alreadyVoted)
      #expect(again.record?.value == 1)

      #expect(try await step(1).record?.value == 2)
      #expect(try await step(1).record?.value == 3)
      #expect(try await step(-1).record?.value == 2)
      #expect(try await step(-1).record?.value == 1)
      #expect(try await step(-1).outcome == .atZero)
      #expect(try await step(-1, "alice").record?.value == 0)
      #expect(try await step(1, "alice").record?.value == 1)
      #expect(try await store.statistics().voters == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func setReturnsTheOldValue(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      #expect(
        try await store.set(namespace: Self.ns, key: "k", value: 3, createIfMissing: nil) == nil)
      #expect(try await store.record(namespace: Self.ns, key: "k") == nil)

      let made = try #require(
        try await store.set(
          namespace: Self.ns, key: "k", value: 7,
          createIfMissing: CounterCreation(namespace: Self.ns, key: "k", enableReset: true)))
      #expect(made.old == 0)
      #expect(made.record.value == 7)
      #expect(made.record.enableReset)

      let changed = try #require(
        try await store.set(namespace: Self.ns, key: "k", value: 69, createIfMissing: nil))
      #expect(changed.old == 7)
      #expect(changed.record.value == 69)

      let clamped = try #require(
        try await store.set(namespace: Self.ns, key: "k", value: -3, createIfMissing: nil))
      #expect(clamped.old == 69)
      #expect(clamped.record.value == 0)
      #expect(try await store.record(namespace: Self.ns, key: "k")?.value == 0)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func valuesLeaveMissingKeysOut(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(CounterCreation(namespace: Self.ns, key: "a", value: 3))
      _ = try await store.create(CounterCreation(namespace: Self.ns, key: "b"))
      _ = try await store.create(CounterCreation(namespace: "elsewhere", key: "c", value: 9))
      let values = try await store.values(
        namespace: Self.ns, keys: ["a", "b", "c", "zzz", "a"])
      #expect(values == ["a": 3, "b": 0])
      #expect(try await store.values(namespace: Self.ns, keys: []) == [:])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func statisticsCountCountersUpdatesAndVoters(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      #expect(try await store.statistics() == StoreStatistics(counters: 0, updates: 0, voters: 0))
      _ = try await store.create(CounterCreation(namespace: Self.ns, key: "a"))
      _ = try await store.apply(CounterMutation(namespace: Self.ns, key: "a", delta: 1))
      _ = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "a", delta: 1, voter: "v1"))
      _ = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "a", delta: 1, voter: "v1"))  // no change
      _ = try await store.apply(
        CounterMutation(
          namespace: Self.ns, key: "b", delta: 1, voter: "v2",
          createIfMissing: CounterCreation(namespace: Self.ns, key: "b")))
      _ = try await store.set(namespace: Self.ns, key: "a", value: 10, createIfMissing: nil)
      #expect(try await store.statistics() == StoreStatistics(counters: 2, updates: 4, voters: 2))
    }
  }

  @Test(arguments: StoreKind.allCases)
  func exportImportRoundTrip(kind: StoreKind) async throws {
    try await kind.withStore { store, handle in
      _ = try await store.create(
        CounterCreation(
          namespace: Self.ns, key: "key-b", value: 4, enableReset: true, updateLowerBound: -3,
          updateUpperBound: 3))
      for voter in ["zed", "amy"] {
        _ = try await store.apply(
          CounterMutation(
            namespace: Self.ns, key: "key-a", delta: 1, voter: voter,
            createIfMissing: CounterCreation(namespace: Self.ns, key: "key-a")))
      }
      let export = try await store.exportAll()
      #expect(export.version == 2)
      #expect(export.counters.map(\.record.key) == ["key-a", "key-b"])
      // Voters leave the store as keyed hashes, sorted, never in clear.
      #expect(export.counters[0].voters.count == 2)
      #expect(export.counters[0].voters == export.counters[0].voters.sorted())
      #expect(export.counters[0].voters.allSatisfy { $0.count == 64 && !$0.contains("amy") })
      #expect(export.counters[0].record.value == 2)

      // JSON round trip, then into a fresh store of the same kind.
      let data = try JSONEncoder().encode(export)
      let decoded = try JSONDecoder().decode(VoteExport.self, from: data)
      try await kind.withStore(voterKeyFrom: handle) { fresh, _ in
        let summary = try await fresh.importAll(decoded, replace: false)
        #expect(summary == ImportSummary(imported: 2, skipped: 0))
        #expect(try await fresh.exportAll() == export)
        // Voters came along: the same voter cannot vote twice after the move.
        let again = try await fresh.apply(
          CounterMutation(namespace: Self.ns, key: "key-a", delta: 1, voter: "amy"))
        #expect(again.outcome == .alreadyVoted)
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func importSkipsOrReplacesExistingCounters(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.apply(
        CounterMutation(
          namespace: Self.ns, key: "key-a", delta: 1, voter: "old",
          createIfMissing: CounterCreation(namespace: Self.ns, key: "key-a")))
      let record = CounterRecord(
        id: 77, namespace: Self.ns, key: "key-a", value: 40, enableReset: true,
        updateLowerBound: -5, updateUpperBound: 5, createdAt: 1000, updatedAt: 2000)
      let other = CounterRecord(
        id: 78, namespace: Self.ns, key: "key-n", value: 2, enableReset: false,
        updateLowerBound: -1, updateUpperBound: 1, createdAt: 1000, updatedAt: 2000)
      // Version 1: voter ids in clear (as exports were before hashing), hashed on import.
      let export = VoteExport(
        version: 1,
        counters: [
          .init(record: record, voters: ["new1", "new2"]), .init(record: other, voters: []),
        ])

      let kept = try await store.importAll(export, replace: false)
      #expect(kept == ImportSummary(imported: 1, skipped: 1))
      #expect(try await store.record(namespace: Self.ns, key: "key-a")?.value == 1)
      #expect(try await store.record(namespace: Self.ns, key: "key-n")?.value == 2)

      let replaced = try await store.importAll(export, replace: true)
      #expect(replaced == ImportSummary(imported: 2, skipped: 0))
      let a = try #require(try await store.record(namespace: Self.ns, key: "key-a"))
      #expect(a.value == 40 && a.enableReset && a.updateLowerBound == -5)
      #expect(a.createdAt == 1000 && a.updatedAt == 2000)
      let voters = try await store.exportAll().counters.first { $0.record.key == "key-a" }?.voters
      #expect(voters?.count == 2)
      for voter in ["new1", "new2"] {
        let again = try await store.apply(
          CounterMutation(namespace: Self.ns, key: "key-a", delta: 1, voter: voter))
        #expect(again.outcome == .alreadyVoted)
      }
      let old = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "key-a", delta: -1, voter: "old"))
      #expect(old.outcome == .notVoted)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anInvalidImportChangesNothing(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let good = CounterRecord(
        id: 1, namespace: Self.ns, key: "good", value: 1, enableReset: false,
        updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0)
      var negative = good
      negative.key = "bad"
      negative.value = -1
      let cases: [VoteExport] = [
        VoteExport(version: 3, counters: []),
        VoteExport(counters: [.init(record: good, voters: []), .init(record: negative, voters: [])]
        ),
        VoteExport(counters: [.init(record: good, voters: []), .init(record: good, voters: [])]),
      ]
      for export in cases {
        let failure = await storeError { () throws(VoteStoreError) in
          _ = try await store.importAll(export, replace: true)
        }
        #expect(failure?.kind == .invalid)
      }
      let counters = try await store.statistics().counters
      #expect(counters == 0)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func closedStoreThrowsClosed(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(CounterCreation(namespace: Self.ns, key: "k"))
      try await store.checkHealth()
      await store.close()
      await store.close()  // twice is harmless
      let read = await storeError { () throws(VoteStoreError) in
        _ = try await store.record(namespace: Self.ns, key: "k")
      }
      let write = await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(CounterMutation(namespace: Self.ns, key: "k", delta: 1))
      }
      let health = await storeError { () throws(VoteStoreError) in
        try await store.checkHealth()
      }
      #expect(read == .closed)
      #expect(write == .closed)
      #expect(health == .closed)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func reopenedStoreSeesEveryAcknowledgedWrite(kind: StoreKind) async throws {
    try await kind.withStore { store, handle in
      for index in 0..<20 {
        _ = try await store.apply(
          CounterMutation(
            namespace: Self.ns, key: "k\(index % 4)", delta: 1, voter: "v\(index)",
            createIfMissing: CounterCreation(namespace: Self.ns, key: "k\(index % 4)")))
      }
      let before = try await store.exportAll()
      await store.close()
      let reopened = try handle.open()
      #expect(try await reopened.exportAll() == before)
      #expect(try await reopened.statistics().updates == 20)
      await reopened.close()
    }
  }

  /// `submit` (the writer's own path on SQLite, the default task on PostgreSQL) applies as
  /// `apply` does and reports the result, an error included.
  @Test(arguments: StoreKind.allCases)
  func submitAppliesAndReportsLikeApply(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      func submitted(_ mutation: CounterMutation) async -> Result<MutationResult, VoteStoreError> {
        await withCheckedContinuation { continuation in
          store.submit(mutation) { continuation.resume(returning: $0) }
        }
      }
      let creation = CounterCreation(namespace: Self.ns, key: "submitted")
      let first = try await submitted(
        CounterMutation(
          namespace: Self.ns, key: "submitted", delta: 1, voter: "v1", createIfMissing: creation)
      ).get()
      #expect(first.outcome == .applied && first.created && first.record?.value == 1)
      let again = try await submitted(
        CounterMutation(namespace: Self.ns, key: "submitted", delta: 1, voter: "v1")
      ).get()
      #expect(again.outcome == .alreadyVoted && again.record?.value == 1)
      #expect(try await store.record(namespace: Self.ns, key: "submitted")?.value == 1)
      await store.close()
      guard
        case .failure(let error) = await submitted(
          CounterMutation(namespace: Self.ns, key: "submitted", delta: 1))
      else {
        Issue.record("a closed store accepted a write")
        return
      }
      #expect(error.kind == .closed)
    }
  }
}

/// `submitBatch`: many mutations handed over at once, answered once, in order, each with its
/// own result; one that fails (in the writer, or before it) fails alone.
@Suite struct VoteStoreBatchSubmitTests {
  static let ns = "app.example"

  @Test(arguments: StoreKind.allCases)
  func eachMutationIsAnsweredInOrderAndAFailureOnlyItself(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      func submitted(_ mutations: [CounterMutation]) async -> [Result<
        MutationResult, VoteStoreError
      >] {
        await withCheckedContinuation { continuation in
          store.submitBatch(mutations) { continuation.resume(returning: $0) }
        }
      }
      // Each mutation on a counter of its own: the default applies them concurrently.
      for (key, value): (String, Int64) in [("a", 5), ("b", 0), ("big", 5), ("d", 3), ("e", 0)] {
        _ = try await store.create(CounterCreation(namespace: Self.ns, key: key, value: value))
      }
      _ = try await store.apply(
        CounterMutation(namespace: Self.ns, key: "e", delta: 1, voter: "v1"))
      let tooBig = CounterCreation(namespace: Self.ns, key: "c", value: CounterLimits.maximum + 1)
      let mutations = [
        CounterMutation(namespace: Self.ns, key: "a", delta: 1),
        CounterMutation(namespace: Self.ns, key: "b", delta: 1, voter: "v1"),
        // Past the limit: refused in the writer (its change undone), alone.
        CounterMutation(namespace: Self.ns, key: "big", delta: CounterLimits.maximum),
        // A creation past the limits: refused before the writer, alone.
        CounterMutation(namespace: Self.ns, key: "c", delta: 1, createIfMissing: tooBig),
        CounterMutation(namespace: Self.ns, key: "missing", delta: 1),
        CounterMutation(namespace: Self.ns, key: "d", delta: -1),
        CounterMutation(namespace: Self.ns, key: "e", delta: 1, voter: "v1"),
      ]
      let results = await submitted(mutations)
      try #require(results.count == mutations.count)
      #expect(try results[0].get().record?.value == 6)
      #expect(try results[1].get().outcome == .applied)
      #expect(try results[1].get().record?.value == 1)
      #expect(throws: VoteStoreError.self) { try results[2].get() }
      #expect(throws: VoteStoreError.self) { try results[3].get() }
      #expect(try results[4].get().outcome == .missing)
      #expect(try results[5].get().record?.value == 2)
      #expect(try results[6].get().outcome == .alreadyVoted)
      for (key, value): (String, Int64) in [("a", 6), ("b", 1), ("big", 5), ("d", 2), ("e", 1)] {
        #expect(try await store.record(namespace: Self.ns, key: key)?.value == value)
      }
      #expect(try await store.record(namespace: Self.ns, key: "c") == nil)
      #expect(await submitted([]).isEmpty)

      // Many batches at once: every vote counted once, each answered with its own count.
      let counts = await withTaskGroup(of: [Int64].self) { group in
        for _ in 0..<8 {
          group.addTask {
            let results = await submitted(
              Array(repeating: CounterMutation(namespace: Self.ns, key: "b", delta: 1), count: 25))
            #expect(results.allSatisfy { (try? $0.get().outcome) == .applied })
            return results.compactMap { try? $0.get().record?.value }
          }
        }
        var all: [Int64] = []
        for await counts in group { all += counts }
        return all
      }
      #expect(counts.sorted() == Array(2...201))
      #expect(try await store.record(namespace: Self.ns, key: "b")?.value == 201)

      // On SQLite the writer applies a batch in its order: each sees the ones before it,
      // and the one that fails between them changes nothing.
      if kind != .postgres {
        let ordered = await submitted([
          CounterMutation(namespace: Self.ns, key: "a", delta: 1),
          CounterMutation(namespace: Self.ns, key: "a", delta: CounterLimits.maximum),
          CounterMutation(namespace: Self.ns, key: "a", delta: 1),
          CounterMutation(namespace: Self.ns, key: "a", delta: 1, voter: "v9"),
          CounterMutation(namespace: Self.ns, key: "a", delta: 1, voter: "v9"),
        ])
        #expect(ordered.map { try? $0.get().record?.value } == [7, nil, 8, 9, 9])
        #expect(try ordered[4].get().outcome == .alreadyVoted)
        #expect(try await store.record(namespace: Self.ns, key: "a")?.value == 9)

        // Anonymous votes on one counter that do not all fit under the limit: each applies
        // until the one that does not fit, which alone is refused.
        let room = CounterLimits.maximum - 6
        let nearLimit = await submitted([
          CounterMutation(namespace: Self.ns, key: "big", delta: 1),
          CounterMutation(namespace: Self.ns, key: "big", delta: room),
          CounterMutation(namespace: Self.ns, key: "big", delta: 1),
        ])
        #expect(nearLimit.map { try? $0.get().record?.value } == [6, CounterLimits.maximum, nil])
        #expect(
          try await store.record(namespace: Self.ns, key: "big")?.value == CounterLimits.maximum)
      }

      await store.close()
      let closed = await submitted([CounterMutation(namespace: Self.ns, key: "a", delta: 1)])
      #expect(closed.count == 1)
      guard case .failure(let error) = closed.first else {
        Issue.record("a closed store accepted a write")
        return
      }
      #expect(error.kind == .closed)
    }
  }
}
