import CSQLite

/// A SQLite result code, primary or extended, that reads well in `switch`.
///
/// A pattern that is a primary code matches every extended code of that family, so
/// `case .busy:` also matches `SQLITE_BUSY_SNAPSHOT`.
struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The code as SQLite returned it.
  let rawValue: Int32

  /// Wraps a code returned by SQLite.
  init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The primary code (the low byte of an extended code).
  var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

  /// Whether the code reports an error (anything but OK, ROW and DONE).
  var isError: Bool { self != .ok && self != .row && self != .done }

  /// SQLite's English description of the code.
  var description: String { String(cString: sqlite3_errstr(rawValue)) + " (\(rawValue))" }

  static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
  static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
  static let done = SQLiteResultCode(rawValue: SQLITE_DONE)
  static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
  static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
  static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
  static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
  static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
  static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
  static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
  static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
  static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
  static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
  static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
  static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
  /// `SQLITE_IOERR_FSYNC`: an fsync failed (of the WAL, inside a commit).
  static let ioErrorFsync = SQLiteResultCode(rawValue: SQLITE_IOERR | (4 << 8))
  /// `SQLITE_IOERR_DIR_FSYNC`: the fsync of a directory failed.
  static let ioErrorDirFsync = SQLiteResultCode(rawValue: SQLITE_IOERR | (5 << 8))

  /// Matches an extended code against a primary pattern, or two codes exactly.
  static func ~= (pattern: SQLiteResultCode, code: SQLiteResultCode) -> Bool {
    if pattern.rawValue == pattern.primary.rawValue { return pattern == code.primary }
    return pattern == code
  }

  /// The store error kind this code means to a caller.
  var errorKind: VoteStoreError.Kind {
    switch self {
    case .busy, .locked: return .busy
    case .corrupt, .notADatabase: return .corrupt
    case .full: return .full
    case .ioErrorFsync, .ioErrorDirFsync: return .notDurable
    case .ioError, .cantOpen, .readOnly, .permission: return .io
    default: return .other
    }
  }
}
