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
}
