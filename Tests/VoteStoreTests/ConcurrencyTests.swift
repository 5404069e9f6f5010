import Testing
import VoteStore

/// Exactness under concurrency: no lost update, no double vote.
@Suite struct ConcurrencyTests {
  @Test(arguments: StoreKind.allCases)
  func sixtyFourWritersGiveTheExactTotal(kind: StoreKind) async throws {
    let writers = 64
    let each = 25
    try await kind.withStore { store, _ in
      let create = CounterCreation(namespace: "ns", key: "hot")
      try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<writers {
          group.addTask {
            for _ in 0..<each {
              let result = try await store.apply(
                CounterMutation(
                  namespace: "ns", key: "hot", delta: 1, checkBounds: true,
                  createIfMissing: create))
              #expect(result.outcome == .applied)
            }
          }
        }
        try await group.waitForAll()
      }
      #expect(try await store.record(namespace: "ns", key: "hot")?.value == Int64(writers * each))
      #expect(try await store.statistics().updates == Int64(writers * each))
    }
  }

  @Test(arguments: StoreKind.allCases)
  func oneVoterManyTimesCountsOnce(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let create = CounterCreation(namespace: "ns", key: "k")
      let applied = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<64 {
          group.addTask {
            var applied = 0
            for voter in ["same", "other"] {
              let result = try await store.apply(
                CounterMutation(
                  namespace: "ns", key: "k", delta: 1, voter: voter, createIfMissing: create))
              if result.outcome == .applied { applied += 1 }
            }
            return applied
          }
        }
        return try await group.reduce(0, +)
      }
      #expect(applied == 2)
      #expect(try await store.record(namespace: "ns", key: "k")?.value == 2)
    }
  }
}
