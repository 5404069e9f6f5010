extension PostgresVoteStore: KeyPagedVoteStore {}

extension PostgresCounterTable {
  /// At most `limit` counters of `namespace` after the key `after`, in bytewise key order
  /// (`COLLATE "C"`, as SQLite and the exports order them).
  func page(_ namespace: String, _ after: String, _ limit: Int) throws(VoteStoreError)
    -> [CounterRecord]
  {
    guard limit > 0 else { return [] }
    return try db.query(
      """
      SELECT id, namespace, key, value, enable_reset, lower, upper, created_ms, updated_ms
      FROM counters WHERE namespace = $1 AND key COLLATE "C" > $2
      ORDER BY key COLLATE "C" LIMIT $3
      """, [namespace, after, String(limit)]
    ).rows.map { row in
      CounterRecord(
        id: PostgresText.int64(row[0]), namespace: row[1] ?? "", key: row[2] ?? "",
        value: PostgresText.int64(row[3]), enableReset: PostgresText.bool(row[4]),
        updateLowerBound: PostgresText.int64(row[5]),
        updateUpperBound: PostgresText.int64(row[6]), createdAt: PostgresText.int64(row[7]),
        updatedAt: PostgresText.int64(row[8]))
    }
  }
}
