/// The PostgreSQL schema: the same tables as the SQLite store, created idempotently.
enum PostgresSchema {
  /// The schema version this code writes.
  static let version: Int64 = 1

  /// How many rows the applied-updates total is spread over, so that concurrent writers to
  /// different counters do not queue on one row lock.
  static let updateShards = 16

  /// Creates what is missing, under an advisory lock so that instances starting together do
  /// not race, and refuses a schema newer than this code.
  static func prepare(_ db: PostgresConnection) throws(VoteStoreError) {
    try db.transaction { () throws(VoteStoreError) in
      try db.execute(
        """
        SELECT pg_advisory_xact_lock(7214001);
        CREATE TABLE IF NOT EXISTS counters (
          id BIGSERIAL PRIMARY KEY,
          namespace TEXT NOT NULL,
          key TEXT NOT NULL,
          value BIGINT NOT NULL CHECK (value >= 0),
          enable_reset BOOLEAN NOT NULL DEFAULT false,
          lower BIGINT NOT NULL,
          upper BIGINT NOT NULL,
          created_ms BIGINT NOT NULL,
          updated_ms BIGINT NOT NULL,
          UNIQUE (namespace, key)
        );
        CREATE TABLE IF NOT EXISTS voters (
          counter_id BIGINT NOT NULL REFERENCES counters (id) ON DELETE CASCADE,
          voter TEXT NOT NULL,
          PRIMARY KEY (counter_id, voter)
        );
        CREATE TABLE IF NOT EXISTS meta (
          name TEXT PRIMARY KEY,
          value BIGINT NOT NULL
        );
        INSERT INTO meta (name, value) VALUES ('schema_version', \(version))
          ON CONFLICT (name) DO NOTHING;
        INSERT INTO meta (name, value)
          SELECT 'updates:' || shard, 0 FROM generate_series(0, \(updateShards - 1)) AS shard
          ON CONFLICT (name) DO NOTHING;
        """)
      let found = PostgresText.int64(
        try db.query("SELECT value FROM meta WHERE name = 'schema_version'").first?[0])
      if found > version {
        throw VoteStoreError(
          .invalid, "the PostgreSQL schema has version \(found); this build knows up to \(version)")
      }
    }
  }
}
