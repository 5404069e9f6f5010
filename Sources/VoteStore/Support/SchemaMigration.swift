/// A connection a migration can run SQL on.
protocol MigrationConnection: Sendable {
  /// Runs one or more statements without parameters.
  func execute(_ sql: String) throws(VoteStoreError)
}

/// What a migration step may need besides its connection.
struct MigrationContext: Sendable {
  /// The store's voter key (SQLite: from its key file; PostgreSQL: the key to install if the
  /// database has none yet).
  var voterKey: VoterKey
}

/// One numbered step of a store's schema, applied once, in its own transaction.
///
/// Each store keeps its steps in one ordered list (`SQLiteSchema.migrations`,
/// `PostgresSchema.migrations`). To change the schema, append one step with the next
/// version number; never edit or reorder a step that has shipped. See docs/storage.md.
struct SchemaMigration<Connection: MigrationConnection>: Sendable {
  /// The schema version after this step (1, 2, 3, … without gaps).
  let version: Int64
  /// What the step does, for logs and error messages.
  let summary: String
  /// Runs the step inside the transaction the runner opened.
  let apply: @Sendable (Connection, MigrationContext) throws(VoteStoreError) -> Void

  /// A step that runs code (e.g. rewriting rows the SQL alone cannot compute).
  init(
    _ version: Int64, _ summary: String,
    apply: @escaping @Sendable (Connection, MigrationContext) throws(VoteStoreError) -> Void
  ) {
    self.version = version
    self.summary = summary
    self.apply = apply
  }

  /// A step that runs `sql` (one or more statements).
  static func sql(_ version: Int64, _ summary: String, _ sql: String) -> SchemaMigration {
    SchemaMigration(version, summary) { db, _ throws(VoteStoreError) in try db.execute(sql) }
  }
}

/// Checks shared by both stores' migration runners.
enum SchemaMigrations {
  /// The version the last step produces; 0 for an empty list.
  static func latest<C>(_ steps: [SchemaMigration<C>]) -> Int64 { steps.last?.version ?? 0 }

  /// A description of what is wrong with a list (versions not 1, 2, 3, …), or nil.
  static func problem<C>(_ steps: [SchemaMigration<C>]) -> String? {
    for (index, step) in steps.enumerated() where step.version != Int64(index + 1) {
      return "migration #\(index + 1) (\(step.summary)) has version \(step.version)"
    }
    return nil
  }

  /// The error for a database whose schema is newer than this build.
  static func newer(_ found: Int64, latest: Int64, place: String) -> VoteStoreError {
    VoteStoreError(
      .incompatible,
      "\(place) has schema version \(found), newer than this build of roadmapctl knows "
        + "(up to \(latest)); it was written by a newer roadmapctl. Nothing was changed: "
        + "run the newer roadmapctl, or restore a backup made for this version.")
  }
}
