import CSQLite
import Foundation

/// One SQLite connection with its cache of prepared statements.
///
/// Not thread-safe: each connection is confined to one dedicated thread at a time (the writer
/// thread or one reader thread), which is why it is marked `@unchecked Sendable` only to be
/// handed over to that thread.
final class SQLiteConnection: ClosableConnection, @unchecked Sendable {
  /// The database file.
  let path: String
  private(set) var handle: OpaquePointer?
  private var statements: [String: SQLiteStatement] = [:]

  /// Opens (and with `create`, creates) the database at `path`.
  init(path: String, create: Bool, busyTimeoutMilliseconds: Int32) throws(VoteStoreError) {
    self.path = path
    try SystemLibraries.requireSQLite()
    var db: OpaquePointer?
    var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
    if create { flags |= SQLITE_OPEN_CREATE }
    let code = SQLiteResultCode(rawValue: sqlite3_open_v2(path, &db, flags, nil))
    guard code == .ok, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? code.description
      sqlite3_close_v2(db)
      throw VoteStoreError(code.errorKind, "cannot open the database \(path): \(message)")
    }
    handle = db
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
  }

  deinit { close() }

  /// A store error for `code`, with SQLite's message, the path and what was being done.
  func error(_ code: SQLiteResultCode, _ doing: String) -> VoteStoreError {
    let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? code.description
    return VoteStoreError(
      code.errorKind, "\(path): \(message) [\(code.rawValue)] while \(doing)")
  }

  /// The statement for `sql`, prepared on first use and cached.
  func statement(_ sql: String) throws(VoteStoreError) -> SQLiteStatement {
    if let cached = statements[sql] { return cached }
    let statement = try SQLiteStatement(connection: self, sql: sql)
    statements[sql] = statement
    return statement
  }

  /// Runs one or more statements without parameters (schema, pragmas, transactions).
  func execute(_ sql: String) throws(VoteStoreError) {
    let code = SQLiteResultCode(rawValue: sqlite3_exec(handle, sql, nil, nil, nil))
    guard code == .ok else { throw error(code, "running \(sql)") }
  }

  /// The rows of a one-column text query without parameters (pragmas).
  func strings(_ sql: String) throws(VoteStoreError) -> [String] {
    let statement = try SQLiteStatement(connection: self, sql: sql)
    defer { statement.finalize() }
    return try statement.rows { row in row.text(0) }
  }

  /// The first integer of a query without parameters, or nil without rows.
  func integer(_ sql: String) throws(VoteStoreError) -> Int64? {
    let statement = try SQLiteStatement(connection: self, sql: sql)
    defer { statement.finalize() }
    return try statement.firstRow { row in row.int64(0) }
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  var changes: Int64 { Int64(sqlite3_changes(handle)) }

  /// The rowid of the last INSERT.
  var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Whether no transaction is open (SQLite rolls back by itself after some errors).
  var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// Whether the database file this connection has open was deleted, renamed or replaced
  /// since it was opened (`SQLITE_FCNTL_HAS_MOVED`: one `stat` of its path): what is written
  /// through it then lands in a file no later open finds.
  var fileHasMoved: Bool {
    var moved: Int32 = 0
    return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK
      && moved != 0
  }

  /// The error of a store whose database file was deleted or replaced under it: nothing
  /// more is written to the file it has open, and only a reopening (a restart) opens what is
  /// at the path now, the same file put back included.
  var movedFileError: VoteStoreError {
    VoteStoreError(
      .io,
      "the database file \(path) was deleted or replaced while the store had it open, so "
        + "nothing was written; the store takes no more writes until it is reopened (restart "
        + "it to open what is at that path now, a file put back there included)",
      publicDetail:
        "the database file was deleted or replaced while the store had it open; the store "
        + "takes no more writes until it is reopened")
  }

  /// Finalizes every statement and closes the connection.
  func close() {
    for statement in statements.values { statement.finalize() }
    statements = [:]
    if let handle { sqlite3_close_v2(handle) }
    handle = nil
  }
}
