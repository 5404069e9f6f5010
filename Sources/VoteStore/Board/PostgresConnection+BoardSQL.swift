extension PostgresConnection: BoardSQL {
  func rows(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> [[BoardValue]] {
    try query(BoardSQLDialect.postgres(sql), values.map(\.text)).rows.map { row in
      row.map { $0.map(BoardValue.text) ?? .null }
    }
  }

  @discardableResult
  func run(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> Int {
    try query(BoardSQLDialect.postgres(sql), values.map(\.text)).affected
  }

  /// A transaction-level advisory lock on the project's name (two-key form, first key
  /// 7214002; the schema runner's lock is the one-key 7214001, another space): held until
  /// COMMIT or ROLLBACK, by whichever instance took it.
  func lockProject(_ project: String) throws(VoteStoreError) {
    try query("SELECT pg_advisory_xact_lock(7214002, hashtext($1))", [project])
  }

  /// The rows read are locked until COMMIT or ROLLBACK, as a vote locks its counter's row.
  var rowLock: String { " FOR UPDATE" }
}
