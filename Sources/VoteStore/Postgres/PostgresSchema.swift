/// The PostgreSQL schema and its migrations, recorded in a `schema_migrations` table.
///
/// To change the schema, append one step to ``migrations`` with the next version. The
/// runner holds an advisory lock while it migrates, so instances that start together
/// migrate once: the first applies the missing steps (each in its own transaction), the
/// others wait for the lock and then find nothing left to do.
enum PostgresSchema {
  /// Every step from an empty database to the current schema, in order.
  static let migrations: [SchemaMigration<PostgresConnection>] = [
    .sql(1, "counters, voters and meta tables", version1),
    .sql(2, "anonymous part of each count", version2),
    SchemaMigration(3, "voter ids stored as HMAC-SHA-256 hashes", apply: hashVoters),
    .sql(4, "VoteFirst board tables", BoardSchema.postgresVersion4),
    .sql(5, "applied updates counted on each counter's own row", version5),
    .sql(6, "the votes last imported into each count", version6),
  ]

  // What the last import (a migration's `importedVotes`) set, so that a later import moves
  // the anonymous part by its change and keeps the votes cast in between; NULL: never
  // imported. A board feature's counter was last set by an import, as far as anyone can
  // tell now.
  private static let version6 = """
    ALTER TABLE counters ADD COLUMN imported BIGINT CHECK (imported >= 0);
    UPDATE counters SET imported = anonymous WHERE EXISTS (
      SELECT 1 FROM vf_features f WHERE f.project = counters.namespace AND f.counter_key = counters.key)
    """

  // A vote then changes only its counter's row, which it has locked anyway (the sharded
  // `meta` rows stay as the total counted before this step).
  private static let version5 = """
    ALTER TABLE counters ADD COLUMN updates BIGINT NOT NULL DEFAULT 0
    """

  /// The schema version this code writes.
  static var version: Int64 { SchemaMigrations.latest(migrations) }

  /// How many rows the applied-updates total was spread over before schema step 5 (each
  /// counter's row counts its own updates since), so that concurrent writers to different
  /// counters did not queue on one row lock.
  static let updateShards = 16

  /// The advisory lock key the migration runner holds (any constant unique to this program).
  static let migrationLock: Int64 = 7_214_001

  // IF NOT EXISTS: databases made before `schema_migrations` existed already have these.
  private static let version1 = """
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
    INSERT INTO meta (name, value) VALUES ('schema_version', 1) ON CONFLICT (name) DO NOTHING;
    INSERT INTO meta (name, value)
      SELECT 'updates:' || shard, 0 FROM generate_series(0, \(updateShards - 1)) AS shard
      ON CONFLICT (name) DO NOTHING;
    """

  // The count is anonymous votes plus voters: the voters a count already holds are taken out
  // of it (at most all of it), and a count below its voters is raised to them.
  private static let version2 = """
    ALTER TABLE counters ADD COLUMN anonymous BIGINT NOT NULL DEFAULT 0;
    WITH held AS (
      SELECT c.id, (SELECT count(*) FROM voters v WHERE v.counter_id = c.id) AS n
      FROM counters c)
    UPDATE counters SET anonymous = GREATEST(0, counters.value - held.n),
      value = GREATEST(0, counters.value - held.n) + held.n
    FROM held WHERE held.id = counters.id;
    ALTER TABLE counters ADD CONSTRAINT counters_anonymous_within_value
      CHECK (anonymous >= 0 AND anonymous <= value);
    """

  /// Installs the voter key (a one-row table) and replaces every clear voter id with its
  /// keyed hash, in chunks of 5,000 rows per statement.
  private static func hashVoters(
    _ db: PostgresConnection, _ context: MigrationContext
  ) throws(VoteStoreError) {
    try db.execute(
      """
      CREATE TABLE voter_key (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        secret TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )
      """)
    try db.query("INSERT INTO voter_key (id, secret) VALUES (1, $1)", [context.voterKey.hex])
    try recordVoterKey(context.voterKey, db)
    let rows = try db.query("SELECT counter_id, voter FROM voters").rows
    var start = 0
    while start < rows.count {
      let chunk = rows[start..<min(rows.count, start + 5000)]
      try db.query(
        """
        UPDATE voters SET voter = m.hash
        FROM unnest($1::bigint[], $2::text[], $3::text[]) AS m (id, clear, hash)
        WHERE voters.counter_id = m.id AND voters.voter = m.clear
        """,
        [
          PostgresText.array(chunk.map { $0[0] ?? "0" }),
          PostgresText.array(chunk.map { $0[1] ?? "" }),
          PostgresText.array(chunk.map { context.voterKey.hash($0[1] ?? "") }),
        ])
      start += 5000
    }
  }

  private static func recordVoterKey(
    _ key: VoterKey, _ db: PostgresConnection
  ) throws(VoteStoreError) {
    try db.query(
      """
      INSERT INTO meta (name, value) VALUES ('voter_key', $1)
      ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value
      """, [String(key.fingerprintNumber)])
  }

  /// The voter key the database holds (installed by migration 3), checked against the key
  /// the stored hashes were made with; a database without voters takes a key put in
  /// `voter_key` by hand (how a key is moved, see docs/storage.md).
  static func voterKey(_ db: PostgresConnection) throws(VoteStoreError) -> VoterKey {
    let key = try installedVoterKey(db)
    let recorded = try db.query("SELECT value FROM meta WHERE name = 'voter_key'").first?[0]
      .map { VoterKey.fingerprint(fromNumber: PostgresText.int64($0)) }
    guard recorded != key.fingerprint else { return key }
    let voters = PostgresText.int64(try db.query("SELECT count(*) FROM voters").first?[0])
    guard voters == 0 else {
      throw VoteStoreError(
        .incompatible,
        "the key in the PostgreSQL table voter_key (fingerprint \(key.fingerprint)) is not the "
          + "key the \(voters) voter hashes were made with (\(recorded ?? "?")); restore the "
          + "voter_key row from a backup of this database")
    }
    try recordVoterKey(key, db)
    return key
  }

  private static func installedVoterKey(_ db: PostgresConnection) throws(VoteStoreError) -> VoterKey
  {
    let secret = try db.query("SELECT secret FROM voter_key WHERE id = 1").first?[0] ?? nil
    guard let secret, let key = VoterKey(hex: secret) else {
      throw VoteStoreError(
        .incompatible,
        "the PostgreSQL table voter_key holds no valid key (expected one row, id 1, with 64 hex "
          + "digits); restore it from a backup of this database")
    }
    return key
  }

  /// Applies the missing `steps` (``migrations`` unless a test gives its own) under the
  /// advisory lock and refuses a schema newer than
  /// this code (``VoteStoreError/Kind/incompatible``, nothing changed).
  static func prepare(
    _ db: PostgresConnection, context: MigrationContext = MigrationContext(voterKey: .random()),
    steps migrations: [SchemaMigration<PostgresConnection>] = migrations
  ) throws(VoteStoreError) {
    let version = SchemaMigrations.latest(migrations)
    if let problem = SchemaMigrations.problem(migrations) {
      throw VoteStoreError(.other, "the PostgreSQL migration list is broken: \(problem)")
    }
    // Another instance may hold it for as long as its migration takes: the wait is bounded
    // by the statement timeout (600 s while the vote store migrates), not the lock timeout
    // meant for a vote's row, which made an instance started beside a migration longer than
    // it fail to start.
    try db.executeWaitingForLock("SELECT pg_advisory_lock(\(migrationLock))")
    defer { try? db.execute("SELECT pg_advisory_unlock(\(migrationLock))") }
    try db.execute(
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version BIGINT PRIMARY KEY,
        summary TEXT NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )
      """)
    let applied = try appliedVersion(db)
    let recorded = try metaVersion(db)
    let found = max(applied, recorded)
    if found > version {
      throw SchemaMigrations.newer(found, latest: version, place: "the PostgreSQL database")
    }
    // A database made before `schema_migrations` existed kept its version in `meta` only:
    // record the steps it has, so they are not run again.
    for step in migrations where step.version > applied && step.version <= recorded {
      try db.query(
        "INSERT INTO schema_migrations (version, summary) VALUES ($1, $2)",
        [String(step.version), step.summary + " (recorded from meta)"])
    }
    for step in migrations where step.version > found {
      do throws(VoteStoreError) {
        try db.transaction { () throws(VoteStoreError) in
          try step.apply(db, context)
          try db.query(
            "INSERT INTO schema_migrations (version, summary) VALUES ($1, $2)",
            [String(step.version), step.summary])
          try db.query(
            "UPDATE meta SET value = $1 WHERE name = 'schema_version'", [String(step.version)])
        }
      } catch {
        throw VoteStoreError(
          error.kind,
          "PostgreSQL migration \(step.version) (\(step.summary)) failed: \(error.message)")
      }
    }
  }

  private static func appliedVersion(_ db: PostgresConnection) throws(VoteStoreError) -> Int64 {
    PostgresText.int64(
      try db.query("SELECT COALESCE(max(version), 0) FROM schema_migrations").first?[0])
  }

  /// The version in `meta` (written by every build, also those before `schema_migrations`).
  private static func metaVersion(_ db: PostgresConnection) throws(VoteStoreError) -> Int64 {
    guard try db.query("SELECT to_regclass('meta') IS NOT NULL").first?[0] == "t" else {
      return 0
    }
    return PostgresText.int64(
      try db.query("SELECT value FROM meta WHERE name = 'schema_version'").first?[0])
  }
}

extension PostgresConnection: MigrationConnection {}
