extension SQLiteCounterTable {
  /// Streams every counter (by namespace, then key) with its sorted voters into `writer`,
  /// one counter at a time, inside the caller's read transaction.
  func export(into writer: inout ExportJSONWriter) throws(VoteStoreError) {
    let counters = try db.statement(
      """
      SELECT id, namespace, key, value, enable_reset, lower, upper, created_ms, updated_ms,
        imported
      FROM counters ORDER BY namespace, key
      """)
    let voters = try db.statement(
      "SELECT voter FROM voters WHERE counter_id = ?1 ORDER BY voter")
    try counters.bind([])
    defer { counters.reset() }
    while try counters.step() {
      let record = CounterRecord(
        id: counters.int64(0), namespace: counters.text(1), key: counters.text(2),
        value: counters.int64(3), enableReset: counters.int64(4) != 0,
        updateLowerBound: counters.int64(5), updateUpperBound: counters.int64(6),
        createdAt: counters.int64(7), updatedAt: counters.int64(8))
      let list = try voters.rows([.integer(record.id)]) { $0.text(0) }
      try writer.add(record, voters: list, imported: counters.optionalInt64(9))
    }
  }
}
