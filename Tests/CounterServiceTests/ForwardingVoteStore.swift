import VoteStore

/// A test's vote store over a SQLite store (``inner``) that overrides a call or two (to hold
/// or hook it) and hands every other one to ``inner``. `submit`, `submitBatch` and the cached
/// reads keep `VoteStore`'s own defaults, which go through ``apply(_:)``, so an override of
/// `apply` sees them.
protocol ForwardingVoteStore: VoteStore {
  /// The store beneath.
  var inner: SQLiteVoteStore { get }
}

extension ForwardingVoteStore {
  func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult {
    try await inner.apply(mutation)
  }
  func counterCount() async throws(VoteStoreError) -> Int64 { try await inner.counterCount() }
  func record(namespace: String, key: String) async throws(VoteStoreError) -> CounterRecord? {
    try await inner.record(namespace: namespace, key: key)
  }
  func values(namespace: String, keys: [String]) async throws(VoteStoreError) -> CounterValues {
    try await inner.values(namespace: namespace, keys: keys)
  }
  func create(_ creation: CounterCreation) async throws(VoteStoreError) -> CounterRecord? {
    try await inner.create(creation)
  }
  func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?
  ) async throws(VoteStoreError) -> (old: Int64, record: CounterRecord)? {
    try await inner.set(
      namespace: namespace, key: key, value: value, createIfMissing: createIfMissing)
  }
  func statistics() async throws(VoteStoreError) -> StoreStatistics {
    try await inner.statistics()
  }
  func exportAll() async throws(VoteStoreError) -> VoteExport { try await inner.exportAll() }
  func exportAll(
    to write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(VoteStoreError) -> ExportSummary {
    try await inner.exportAll(to: write)
  }
  func importAll(_ export: VoteExport, replace: Bool) async throws(VoteStoreError)
    -> ImportSummary
  {
    try await inner.importAll(export, replace: replace)
  }
  func restoreAll(votes: VoteExport, boards: BoardBackup) async throws(VoteStoreError)
    -> ImportSummary
  {
    try await inner.restoreAll(votes: votes, boards: boards)
  }
  func checkHealth() async throws(VoteStoreError) { try await inner.checkHealth() }
  func writeHealth() -> StoreWriteHealth { inner.writeHealth() }
  func close() async { await inner.close() }
}
