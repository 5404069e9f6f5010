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
      SELECT \(Self.columns)
      FROM counters WHERE namespace = $1 AND key COLLATE "C" > $2
      ORDER BY key COLLATE "C" LIMIT $3
      """, [namespace, after, String(limit)]
    ).rows.map(Self.record)
  }
}
