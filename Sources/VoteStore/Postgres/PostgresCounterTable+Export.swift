extension PostgresCounterTable {
  /// Streams every counter (by namespace, then key, bytewise) with its sorted voters into
  /// `writer` from one snapshot, 1,000 counters per fetch.
  ///
  /// The transaction may sit idle while `writer` waits on its output (a slow pipe): it
  /// holds no lock, so the session's `idle_in_transaction_session_timeout` is lifted for it.
  func export(into writer: inout ExportJSONWriter) throws(VoteStoreError) {
    try db.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
      () throws(VoteStoreError) in
      try db.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
      try db.execute(
        """
        DECLARE export_counters NO SCROLL CURSOR FOR
        SELECT \(Self.columns), imported
        FROM counters ORDER BY namespace COLLATE "C", key COLLATE "C"
        """)
      while true {
        let rows = try db.query("FETCH 1000 FROM export_counters").rows
        if rows.isEmpty { break }
        let records = rows.map(Self.record)
        let imported = rows.map { $0[9].flatMap { Int64($0) } }
        var voters: [Int64: [String]] = [:]
        for row in try db.query(
          """
          SELECT counter_id, voter FROM voters WHERE counter_id = ANY ($1::bigint[])
          ORDER BY counter_id, voter COLLATE "C"
          """, [PostgresText.array(records.map { String($0.id) })]
        ).rows {
          voters[PostgresText.int64(row[0]), default: []].append(row[1] ?? "")
        }
        for (record, imported) in zip(records, imported) {
          try writer.add(record, voters: voters[record.id] ?? [], imported: imported)
        }
      }
      try db.execute("CLOSE export_counters")
    }
  }
}
