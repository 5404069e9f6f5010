import CSQLite

/// A prepared statement, owned by one ``SQLiteConnection`` and used on its thread only.
final class SQLiteStatement {
  /// The SQL it was prepared from.
  let sql: String
  private(set) var handle: OpaquePointer?
  private unowned let connection: SQLiteConnection

  init(connection: SQLiteConnection, sql: String) throws(VoteStoreError) {
    self.connection = connection
    self.sql = sql
    var statement: OpaquePointer?
    let code = SQLiteResultCode(
      rawValue: sqlite3_prepare_v3(
        connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
    guard code == .ok, let statement else {
      throw connection.error(code, "preparing \(sql)")
    }
    handle = statement
  }

  /// Resets the statement and binds `values` to parameters 1…n.
  func bind(_ values: [SQLiteValue]) throws(VoteStoreError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let rc: Int32
      switch value {
      case .integer(let number):
        rc = sqlite3_bind_int64(handle, index, number)
      case .null:
        rc = sqlite3_bind_null(handle, index)
      case .text(let text):
        rc = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), sqliteTransient)
      }
      let code = SQLiteResultCode(rawValue: rc)
      guard code == .ok else {
        throw connection.error(code, "binding parameter \(index) of \(sql)")
      }
    }
  }

  /// Advances; true when a row is available, false when done.
  func step() throws(VoteStoreError) -> Bool {
    let code = SQLiteResultCode(rawValue: sqlite3_step(handle))
    switch code {
    case .row: return true
    case .done: return false
    default:
      sqlite3_reset(handle)
      throw connection.error(code, "running \(sql)")
    }
  }

  /// Runs to completion, ignoring rows, and resets.
  func run(_ values: [SQLiteValue] = []) throws(VoteStoreError) {
    try bind(values)
    while try step() {}
    sqlite3_reset(handle)
  }

  /// Runs and maps every row.
  func rows<T>(
    _ values: [SQLiteValue] = [], _ map: (SQLiteStatement) throws(VoteStoreError) -> T
  ) throws(VoteStoreError) -> [T] {
    try bind(values)
    var result: [T] = []
    while try step() { result.append(try map(self)) }
    sqlite3_reset(handle)
    return result
  }

  /// Runs and maps the first row, if any.
  func firstRow<T>(
    _ values: [SQLiteValue] = [], _ map: (SQLiteStatement) throws(VoteStoreError) -> T
  ) throws(VoteStoreError) -> T? {
    try bind(values)
    defer { sqlite3_reset(handle) }
    guard try step() else { return nil }
    return try map(self)
  }

  /// The integer in column `index` of the current row.
  func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

  /// The integer in column `index` of the current row, nil for NULL.
  func optionalInt64(_ index: Int32) -> Int64? {
    sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
  }

  /// The text in column `index` of the current row ("" for NULL).
  func text(_ index: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Resets the statement (ends a step loop early).
  func reset() { sqlite3_reset(handle) }

  /// Finalizes the statement; it cannot be used afterwards.
  func finalize() {
    sqlite3_finalize(handle)
    handle = nil
  }
}

/// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
let sqliteTransient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
