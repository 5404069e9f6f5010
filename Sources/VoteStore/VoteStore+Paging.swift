/// A store that reads one namespace's counters in key order, a page at a time, with one
/// indexed query (`GET /counts/:ns` without `keys`), instead of an export of everything.
///
/// A protocol of its own beside ``VoteStore``, so that adding it touched no other store:
/// ``VoteStore/counters(namespace:after:limit:)`` uses it when the store has it and pages
/// through ``VoteStore/exportAll()`` otherwise.
public protocol KeyPagedVoteStore: VoteStore {
  /// At most `limit` counters of `namespace` whose key sorts after `after` (bytewise; `""`
  /// for the first page), in key order, from one snapshot.
  func counters(namespace: String, after: String, limit: Int) async throws(VoteStoreError)
    -> [CounterRecord]
}

extension VoteStore {
  /// At most `limit` counters of `namespace` whose key sorts after `after` (bytewise; `""`
  /// for the first page), in key order: none for a `limit` below 1.
  public func counters(namespace: String, after: String, limit: Int) async throws(VoteStoreError)
    -> [CounterRecord]
  {
    guard limit > 0 else { return [] }
    if let paged = self as? any KeyPagedVoteStore {
      return try await paged.counters(namespace: namespace, after: after, limit: limit)
    }
    return VoteExport.page(
      of: try await exportAll(), namespace: namespace, after: after, limit: limit)
  }
}

extension VoteExport {
  /// The page ``VoteStore/counters(namespace:after:limit:)`` answers, cut from a whole export
  /// (the way for a store without ``KeyPagedVoteStore``).
  static func page(of export: VoteExport, namespace: String, after: String, limit: Int)
    -> [CounterRecord]
  {
    Array(
      export.counters.lazy.map(\.record)
        .filter { $0.namespace == namespace && after.utf8.lexicographicallyPrecedes($0.key.utf8) }
        .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        .prefix(max(0, limit)))
  }
}
