/// The board tables and their versioned migrations, the same SQL on SQLite and PostgreSQL.
///
/// The board's version is kept in its own `vf_meta` row, apart from the counters' schema
/// version, so the two evolve independently on one database. Each step runs in the caller's
/// transaction; a database written by a newer build is refused with `.invalid`.
enum BoardSchema {
  /// The version this code writes.
  static let version: Int64 = 1

  /// The statements of each step, in order.
  static let migrations: [(version: Int64, statements: [String])] = [
    (
      1,
      [
        """
        CREATE TABLE vf_projects (
          project TEXT PRIMARY KEY, settings TEXT NOT NULL, created_ms BIGINT NOT NULL)
        """,
        """
        CREATE TABLE vf_sequences (
          project TEXT NOT NULL, kind TEXT NOT NULL, next_id BIGINT NOT NULL,
          PRIMARY KEY (project, kind))
        """,
        """
        CREATE TABLE vf_features (
          project TEXT NOT NULL, id BIGINT NOT NULL, ref TEXT, counter_key TEXT NOT NULL,
          board TEXT NOT NULL, stage BIGINT, tags TEXT NOT NULL, search TEXT NOT NULL,
          comments BIGINT NOT NULL, created_ms BIGINT NOT NULL, doc TEXT NOT NULL,
          PRIMARY KEY (project, id))
        """,
        "CREATE UNIQUE INDEX vf_features_ref ON vf_features (project, ref)",
        "CREATE INDEX vf_features_board ON vf_features (project, board, stage)",
      ]
        + BoardItemKind.allCases.map { kind in
          """
          CREATE TABLE \(kind.table) (
            project TEXT NOT NULL, id BIGINT NOT NULL, key TEXT NOT NULL, sort BIGINT NOT NULL,
            doc TEXT NOT NULL, PRIMARY KEY (project, id))
          """
        }
    )
  ]

  /// Brings the board tables on `db` to ``version``, inside the caller's transaction.
  static func migrate(_ db: some BoardSQL, describing name: String) throws(VoteStoreError) {
    try db.run(
      "CREATE TABLE IF NOT EXISTS vf_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)", [])
    let current =
      try db.first("SELECT value FROM vf_meta WHERE name = 'board_schema_version'", [])?[0]
      .integer ?? 0
    if current > version {
      throw VoteStoreError(
        .invalid,
        "\(name) has board schema version \(current); this build knows up to \(version)")
    }
    for step in migrations where step.version > current {
      for statement in step.statements { try db.run(statement, []) }
      try db.run(
        """
        INSERT INTO vf_meta (name, value) VALUES ('board_schema_version', ?1)
        ON CONFLICT (name) DO UPDATE SET value = excluded.value
        """, [.integer(step.version)])
    }
  }
}
