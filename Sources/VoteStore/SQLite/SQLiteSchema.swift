/// The SQLite schema and its migrations, versioned with `PRAGMA user_version`.
enum SQLiteSchema {
  /// The schema version this code writes.
  static let version: Int64 = 1

  /// The statements that take an empty database (user_version 0) to each version.
  static let migrations: [Int64: String] = [
    1: """
    CREATE TABLE counters (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      namespace TEXT NOT NULL,
      key TEXT NOT NULL,
      value INTEGER NOT NULL CHECK (value >= 0),
      enable_reset INTEGER NOT NULL DEFAULT 0,
      lower INTEGER NOT NULL,
      upper INTEGER NOT NULL,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL,
      UNIQUE (namespace, key)
    );
    CREATE TABLE voters (
      counter_id INTEGER NOT NULL REFERENCES counters (id) ON DELETE CASCADE,
      voter TEXT NOT NULL,
      PRIMARY KEY (counter_id, voter)
    ) WITHOUT ROWID;
    CREATE TABLE meta (
      name TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO meta (name, value) VALUES ('schema_version', 1), ('updates', 0);
    """
  ]

  /// Brings the database on `db` to ``version`` in one transaction.
  static func migrate(_ db: SQLiteConnection) throws(VoteStoreError) {
    try db.execute("BEGIN IMMEDIATE")
    do throws(VoteStoreError) {
      let current = try db.integer("PRAGMA user_version") ?? 0
      if current > version {
        throw VoteStoreError(
          .invalid,
          "\(db.path) has schema version \(current); this build knows up to \(version)")
      }
      if current < version {
        for step in (current + 1)...version {
          if let sql = migrations[step] { try db.execute(sql) }
          try db.execute("UPDATE meta SET value = \(step) WHERE name = 'schema_version'")
          try db.execute("PRAGMA user_version = \(step)")
        }
      }
      try db.execute("COMMIT")
    } catch {
      if !db.isAutocommit { try? db.execute("ROLLBACK") }
      throw error
    }
  }
}
