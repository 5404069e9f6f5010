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
      SELECT id, namespace, key, value, enable_reset, lower, upper, created_ms, updated_ms
      FROM counters WHERE namespace = ?1 AND key > ?2 ORDER BY key LIMIT ?3
      """
    ).rows([.text(namespace), .text(after), .integer(Int64(limit))]) { row in
      CounterRecord(
        id: row.int64(0), namespace: row.text(1), key: row.text(2), value: row.int64(3),
        enableReset: row.int64(4) != 0, updateLowerBound: row.int64(5),
        updateUpperBound: row.int64(6), createdAt: row.int64(7), updatedAt: row.int64(8))
    }
  }
}
