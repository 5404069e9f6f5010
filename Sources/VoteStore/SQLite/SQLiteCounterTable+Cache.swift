extension SQLiteCounterTable {
  /// The rows with these ids (rows that no longer exist are left out), for the cache's
  /// publication after a commit.
  func records(ids: Set<Int64>) throws(VoteStoreError) -> [CounterRecord] {
    let statement = try db.statement("SELECT \(Self.columns) FROM counters WHERE id = ?1")
    var records: [CounterRecord] = []
    records.reserveCapacity(ids.count)
    for id in ids {
      if let record = try statement.firstRow([.integer(id)], { Self.record($0) }) {
        records.append(record)
      }
    }
    return records
  }
}
