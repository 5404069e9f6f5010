/// The board tables, the same SQL on SQLite and PostgreSQL, applied as step 3 of each store's
/// schema migrations (`SQLiteSchema.migrations`, `PostgresSchema.migrations`), so boards and
/// counters share one database and one schema version.
enum BoardSchema {
  /// Step 3 for SQLite: every table `WITHOUT ROWID` (its primary key is the table: one page
  /// each on an empty database, ten pages in all).
  static let sqliteVersion4 =
    statements.map { $0.hasPrefix("CREATE TABLE") ? $0 + " WITHOUT ROWID" : $0 }
    .joined(separator: ";\n") + ";"

  /// Step 3 for PostgreSQL.
  static let postgresVersion4 = statements.joined(separator: ";\n") + ";"

  /// Projects, id sequences, features, and the five item tables of ``BoardItemKind``.
  private static let statements: [String] =
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
}
