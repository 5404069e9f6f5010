import CSQLite

extension SQLiteConnection: BoardSQL {
  func rows(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> [[BoardValue]] {
    let statement = try self.statement(sql)
    return try statement.rows(values.map(\.sqlite)) { row in
      let count = sqlite3_column_count(row.handle)
      var columns: [BoardValue] = []
      columns.reserveCapacity(Int(count))
      for index in 0..<count {
        switch sqlite3_column_type(row.handle, index) {
        case SQLITE_NULL: columns.append(.null)
        case SQLITE_INTEGER: columns.append(.integer(row.int64(index)))
        default: columns.append(.text(row.text(index)))
        }
      }
      return columns
    }
  }

  @discardableResult
  func run(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> Int {
    try statement(sql).run(values.map(\.sqlite))
    return Int(changes)
  }

  /// Nothing: one writer thread runs every write to the file, one transaction at a time
  /// (and other processes wait for SQLite's write lock), so a write already runs alone.
  func lockProject(_ project: String) throws(VoteStoreError) {}

  /// Nothing: the one writer holds the whole database.
  var rowLock: String { "" }
}

extension BoardValue {
  fileprivate var sqlite: SQLiteValue {
    switch self {
    case .integer(let value): .integer(value)
    case .text(let text): .text(text)
    case .null: .null
    }
  }
}
