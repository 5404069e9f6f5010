extension SQLiteVoteStore: KeyPagedVoteStore {}

extension SQLiteCounterTable {
  /// At most `limit` counters of `namespace` after the key `after`, in key order (SQLite's
  /// BINARY collation: bytewise), along the `(namespace, key)` index.
  func page(_ namespace: String, _ after: String, _ limit: Int) throws(VoteStoreError)
    -> [CounterRecord]
  {
    guard limit > 0 else { return [] }
    return try db.statement(
      """
      SELECT \(Self.columns)
      FROM counters WHERE namespace = ?1 AND key > ?2 ORDER BY key LIMIT ?3
      """
    ).rows([.text(namespace), .text(after), .integer(Int64(limit))]) { row in Self.record(row) }
  }
}
