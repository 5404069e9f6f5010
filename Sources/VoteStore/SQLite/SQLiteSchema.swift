/// The SQLite schema and its migrations, versioned with `PRAGMA user_version`.
///
/// To change the schema, append one step to ``migrations`` with the next version; the
/// runner applies each missing step in its own `BEGIN IMMEDIATE` transaction at open.
enum SQLiteSchema {
  /// Every step from an empty database to the current schema, in order.
  static let migrations: [SchemaMigration<SQLiteConnection>] = [
    .sql(1, "counters, voters and meta tables", version1),
    .sql(2, "anonymous part of each count", version2),
    SchemaMigration(3, "voter ids stored as HMAC-SHA-256 hashes", apply: hashVoters),
    .sql(4, "VoteFirst board tables", BoardSchema.sqliteVersion4),
    .sql(5, "applied updates counted on each counter's own row", version5),
    .sql(6, "the votes last imported into each count", version6),
  ]

  /// The schema version this code writes.
  static var version: Int64 { SchemaMigrations.latest(migrations) }

  // What the last import (a migration's `importedVotes`) set, so that a later import moves
  // the anonymous part by its change and keeps the votes cast in between; NULL: never
  // imported. A board feature's counter was last set by an import, as far as anyone can
  // tell now.
  private static let version6 = """
    ALTER TABLE counters ADD COLUMN imported INTEGER CHECK (imported >= 0);
    UPDATE counters SET imported = anonymous WHERE EXISTS (
      SELECT 1 FROM vf_features f WHERE f.project = counters.namespace AND f.counter_key = counters.key)
    """

  // A vote then writes only its counter's page: counting it in `meta` too wrote a second page
  // to the WAL on every commit, and a commit's fsync takes longer the more it writes. The
  // store's total is `meta.updates` (everything counted before this step) plus the rows'.
  private static let version5 = """
    ALTER TABLE counters ADD COLUMN updates INTEGER NOT NULL DEFAULT 0
    """

  private static let version1 = """
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

  // The count is anonymous votes plus voters: the voters a count already holds are taken out
  // of it (at most all of it), and a count below its voters is raised to them.
  private static let version2 = """
    ALTER TABLE counters ADD COLUMN anonymous INTEGER NOT NULL DEFAULT 0
      CHECK (anonymous >= 0 AND anonymous <= value);
    UPDATE counters SET
      anonymous = max(0, value - (SELECT count(*) FROM voters WHERE counter_id = counters.id)),
      value = max(0, value - (SELECT count(*) FROM voters WHERE counter_id = counters.id))
        + (SELECT count(*) FROM voters WHERE counter_id = counters.id);
    """

  /// Replaces every clear voter id with its keyed hash and records the key's fingerprint.
  private static func hashVoters(
    _ db: SQLiteConnection, _ context: MigrationContext
  ) throws(VoteStoreError) {
    let pairs = try db.statement("SELECT counter_id, voter FROM voters").rows { row in
      (row.int64(0), row.text(1))
    }
    try db.execute("DELETE FROM voters")
    let insert = try db.statement(
      "INSERT INTO voters (counter_id, voter) VALUES (?1, ?2) ON CONFLICT DO NOTHING")
    for (id, voter) in pairs {
      try insert.run([.integer(id), .text(context.voterKey.hash(voter))])
    }
    try SQLiteCounterTable(db: db).recordVoterKey(context.voterKey)
  }

  /// Throws ``VoteStoreError/Kind/incompatible`` when the database is newer than this code.
  static func refuseNewer(_ db: SQLiteConnection) throws(VoteStoreError) {
    let found = try db.integer("PRAGMA user_version") ?? 0
    if found > version { throw SchemaMigrations.newer(found, latest: version, place: db.path) }
  }

  /// Brings the database on `db` to the last of `steps` (``migrations`` unless a test gives
  /// its own), one transaction per missing step.
  ///
  /// A database newer than this code is refused (``VoteStoreError/Kind/incompatible``) and
  /// left untouched. Another process migrating at the same time is harmless: each step
  /// re-reads the version under the write lock and skips what is already applied.
  static func migrate(
    _ db: SQLiteConnection, context: MigrationContext,
    steps migrations: [SchemaMigration<SQLiteConnection>] = migrations
  ) throws(VoteStoreError) {
    let version = SchemaMigrations.latest(migrations)
    if let problem = SchemaMigrations.problem(migrations) {
      throw VoteStoreError(.other, "the SQLite migration list is broken: \(problem)")
    }
    // Each pass takes the write lock, reads the version, and applies at most one step; the
    // last pass finds nothing to do (so opening always proves the lock can be taken).
    while true {
      try db.execute("BEGIN IMMEDIATE")
      do throws(VoteStoreError) {
        let current = try db.integer("PRAGMA user_version") ?? 0
        if current > version {
          throw SchemaMigrations.newer(current, latest: version, place: db.path)
        }
        guard let step = migrations.first(where: { $0.version > current }) else {
          try db.execute("COMMIT")
          return
        }
        do throws(VoteStoreError) {
          try step.apply(db, context)
        } catch {
          throw VoteStoreError(
            error.kind,
            "\(db.path): migration \(step.version) (\(step.summary)) failed: \(error.message)")
        }
        try db.execute("UPDATE meta SET value = \(step.version) WHERE name = 'schema_version'")
        try db.execute("PRAGMA user_version = \(step.version)")
        try db.execute("COMMIT")
      } catch {
        if !db.isAutocommit { try? db.execute("ROLLBACK") }
        throw error
      }
    }
  }
}

extension SQLiteConnection: MigrationConnection {}
