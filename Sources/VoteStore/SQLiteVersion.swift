import CSQLite

/// The version of the SQLite library the store is linked against, e.g. `"3.40.1"`.
public var sqliteLibraryVersion: String { String(cString: sqlite3_libversion()) }
