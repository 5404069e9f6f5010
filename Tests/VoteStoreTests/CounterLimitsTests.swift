import Foundation
import Testing
import VoteStore

/// Every count and bound stays within ±(2^53−1); a write that would leave it is refused as
/// `.outOfRange` and changes nothing.
@Suite struct CounterLimitsTests {
  static let max = CounterLimits.maximum

  @Test func theLimitIsTwoToTheFiftyThirdMinusOne() {
    #expect(CounterLimits.maximum == 9_007_199_254_740_991)
    #expect(CounterLimits.contains(-CounterLimits.maximum))
    #expect(!CounterLimits.contains(CounterLimits.maximum + 1))
    #expect(VoteStoreError.outOfRange("x").isRefusal)
    #expect(!VoteStoreError(.full, "x").isRefusal)
    #expect(VoteStoreError(.full, "x").isStoreFailure)
    #expect(!VoteStoreError.closed.isStoreFailure)
  }

  @Test(arguments: StoreKind.allCases)
  func creationsOutsideTheRangeAreRefused(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let bad = [
        CounterCreation(namespace: "ns", key: "k", value: Self.max + 1),
        CounterCreation(namespace: "ns", key: "k", updateLowerBound: -Self.max - 1),
        CounterCreation(namespace: "ns", key: "k", updateUpperBound: .max),
      ]
      for creation in bad {
        let failure = await storeError { () throws(VoteStoreError) in
          _ = try await store.create(creation)
        }
        #expect(failure?.kind == .outOfRange)
        let viaHit = await storeError { () throws(VoteStoreError) in
          _ = try await store.apply(
            CounterMutation(namespace: "ns", key: "k", delta: 1, createIfMissing: creation))
        }
        #expect(viaHit?.kind == .outOfRange)
      }
      #expect(try await store.record(namespace: "ns", key: "k") == nil)
      let edge = try await store.create(
        CounterCreation(
          namespace: "ns", key: "k", value: Self.max, updateLowerBound: -Self.max,
          updateUpperBound: Self.max))
      #expect(edge?.value == Self.max)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anUpdatePastTheLimitIsRefusedAndTheValueStays(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(
        CounterCreation(
          namespace: "ns", key: "k", value: Self.max - 1, updateLowerBound: -Self.max,
          updateUpperBound: Self.max))
      let one = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
      #expect(one.record?.value == Self.max)
      for delta in [1, Self.max, Int64.max] {
        let failure = await storeError { () throws(VoteStoreError) in
          _ = try await store.apply(
            CounterMutation(namespace: "ns", key: "k", delta: delta, checkBounds: delta <= Self.max)
          )
        }
        #expect(failure?.kind == .outOfRange, "delta \(delta)")
      }
      let voter = await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(
          CounterMutation(namespace: "ns", key: "k", delta: 1, voter: "v"))
      }
      #expect(voter?.kind == .outOfRange)
      #expect(try await store.record(namespace: "ns", key: "k")?.value == Self.max)
      #expect(try await store.statistics().voters == 0)
      // Refusals are the caller's doing, not a store failure.
      #expect(store.writeHealth().isFailing == false)
      #expect(store.writeHealth().failures == 0)

      let down = try await store.apply(
        CounterMutation(namespace: "ns", key: "k", delta: Int64.min))
      #expect(down.record?.value == 0)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aSetPastTheLimitIsRefused(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(CounterCreation(namespace: "ns", key: "k", value: 3))
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.set(
          namespace: "ns", key: "k", value: Self.max + 1, createIfMissing: nil)
      }
      #expect(failure?.kind == .outOfRange)
      #expect(try await store.record(namespace: "ns", key: "k")?.value == 3)
    }
  }
}
