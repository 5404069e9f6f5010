import Foundation
import Testing

@testable import VoteStore

/// `counters(namespace:after:limit:)`: one namespace's counters by key, a page at a time,
/// bytewise (upper case before lower case, as the exports order them), on both stores; and
/// the page cut from an export (for stores without their own query) is the same.
@Suite struct CounterPagingTests {
  static let keys = ["b-key", "B-key", "a.key", "Zed", "_under", "abc", "ab", "0-first"]

  @Test(arguments: StoreKind.allCases)
  func pagesWalkTheNamespaceInByteOrder(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      for key in Self.keys {
        _ = try await store.create(CounterCreation(namespace: "page-ns", key: key, value: 3))
      }
      _ = try await store.create(CounterCreation(namespace: "other-ns", key: "abd", value: 1))
      _ = try await store.create(CounterCreation(namespace: "page-nr", key: "zzz", value: 1))
      let expected = Self.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      #expect(expected.first == "0-first" && expected.last == "b-key")
      for limit in [1, 3, 8, 100] {
        var after = ""
        var walked: [String] = []
        while true {
          let page = try await store.counters(namespace: "page-ns", after: after, limit: limit)
          #expect(page.count <= limit)
          #expect(page.allSatisfy { $0.namespace == "page-ns" && $0.value == 3 })
          walked += page.map(\.key)
          guard page.count == limit, let last = page.last?.key else { break }
          after = last
        }
        #expect(walked == expected, "limit \(limit)")
      }
      // After a key that is not there: the keys above it.
      #expect(
        try await store.counters(namespace: "page-ns", after: "ZZ", limit: 3).map(\.key)
          == ["Zed", "_under", "a.key"])
      #expect(try await store.counters(namespace: "page-ns", after: "b-key", limit: 5) == [])
      #expect(try await store.counters(namespace: "page-ns", after: "", limit: 0) == [])
      #expect(try await store.counters(namespace: "page-ns", after: "", limit: -4) == [])
      #expect(try await store.counters(namespace: "no-such-ns", after: "", limit: 5) == [])

      // The export's cut is the same page, record for record.
      let export = try await store.exportAll()
      for after in ["", "B-key", "ab", "zz"] {
        #expect(
          VoteExport.page(of: export, namespace: "page-ns", after: after, limit: 4)
            == (try await store.counters(namespace: "page-ns", after: after, limit: 4)))
      }
      #expect(VoteExport.page(of: export, namespace: "page-ns", after: "", limit: -1) == [])
    }
  }
}
