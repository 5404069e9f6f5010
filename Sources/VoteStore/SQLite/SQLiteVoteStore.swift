import Foundation

/// The embedded vote store: one SQLite database in WAL mode with `synchronous=FULL`.
///
/// Writes go to one dedicated writer thread that groups concurrent writes into one
/// transaction (group commit: one fsync for many votes) and answers each caller only after
/// the commit. Reads run on a few read connections, each on its own thread. No SQLite call
/// ever runs on Swift's cooperative thread pool.
///
/// Opening checks the database (`PRAGMA integrity_check` or `quick_check`) and refuses a
/// damaged file or one that is not a database with ``VoteStoreError/Kind/corrupt``.
/// The initializers block while they open and check the file: call them at start-up.
public final class SQLiteVoteStore: VoteStore {
  /// The database file.
  public let path: String
  private let writer: SQLiteWriter
  private let readers: ConnectionPool<SQLiteConnection>
  private let checkpointer: SQLiteCheckpointer
  private let health = WriteHealthTracker()

  /// Opens (creating if needed) `votes.sqlite3` in `directory`, creating the directory too.
  ///
  /// Throws `.io` when the directory or file cannot be created or opened, `.corrupt` when
  /// the file is damaged or not a database, `.invalid` when it was written by a newer schema.
  public convenience init(
    directory: URL, options: SQLiteVoteStoreOptions = .init()
  ) throws(VoteStoreError) {
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true)
    } catch {
      throw VoteStoreError(
        .io, "cannot create the data directory \(directory.path): \(error.localizedDescription)")
    }
    try self.init(
      path: directory.appendingPathComponent(Self.fileName).path, options: options)
  }

  /// Opens (creating if needed) the database file at `path`. Errors as for
  /// ``init(directory:options:)``.
  public init(path: String, options: SQLiteVoteStoreOptions = .init()) throws(VoteStoreError) {
    self.path = path
    let timeout = Int32(clamping: options.busyTimeoutMilliseconds)
    let writeConnection = try SQLiteConnection(
      path: path, create: true, busyTimeoutMilliseconds: timeout)
    do throws(VoteStoreError) {
      try Self.check(writeConnection, options.startupCheck)
      let mode = try writeConnection.strings("PRAGMA journal_mode = WAL").first ?? ""
      guard mode.lowercased() == "wal" else {
        throw VoteStoreError(.io, "\(path): cannot use WAL mode (journal mode is \(mode))")
      }
      try writeConnection.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
      if let pages = options.maximumPageCount {
        _ = try writeConnection.integer("PRAGMA max_page_count = \(max(1, pages))")
      }
      try SQLiteSchema.migrate(writeConnection)
    } catch {
      writeConnection.close()
      throw error
    }
    var readConnections: [SQLiteConnection] = []
    let checkpointConnection: SQLiteConnection
    do throws(VoteStoreError) {
      checkpointConnection = try SQLiteConnection(
        path: path, create: false, busyTimeoutMilliseconds: timeout)
      readConnections.append(checkpointConnection)
      for _ in 0..<max(1, options.readConnections) {
        let reader = try SQLiteConnection(
          path: path, create: false, busyTimeoutMilliseconds: timeout)
        readConnections.append(reader)
        try reader.execute("PRAGMA query_only = ON")
      }
    } catch {
      for reader in readConnections { reader.close() }
      writeConnection.close()
      throw error
    }
    readConnections.removeFirst()
    checkpointer = SQLiteCheckpointer(connection: checkpointConnection)
    do throws(VoteStoreError) {
      try checkpointer.attach(to: writeConnection)
    } catch {
      // Without the hook, SQLite's own autocheckpoint (in the writer) stays on.
      try? writeConnection.execute("PRAGMA wal_autocheckpoint = 1000")
    }
    writer = SQLiteWriter(
      connection: writeConnection, maximumBatchSize: options.maximumBatchSize)
    readers = ConnectionPool(name: "VoteStore.reader", connections: readConnections)
  }

  deinit {
    // A store released without close(): the threads finish queued work, then exit.
    writer.closeEventually()
    readers.closeEventually()
    checkpointer.closeEventually()
  }

  /// The database file name inside a data directory.
  public static let fileName = "votes.sqlite3"

  private static func check(
    _ db: SQLiteConnection, _ check: SQLiteVoteStoreOptions.StartupCheck
  ) throws(VoteStoreError) {
    var full = check == .full
    if check == .automatic {
      let pages = try db.integer("PRAGMA page_count") ?? 0
      let pageSize = try db.integer("PRAGMA page_size") ?? 4096
      full = pages * pageSize <= 64 << 20
    }
    let problems: [String]
    do throws(VoteStoreError) {
      problems = try db.strings(full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
    } catch {
      guard error.kind == .corrupt else { throw error }
      throw VoteStoreError(
        .corrupt, "the vote database \(db.path) is damaged or not a database: \(error.message)")
    }
    guard problems == ["ok"] else {
      throw VoteStoreError(
        .corrupt,
        "the vote database \(db.path) is damaged: "
          + problems.prefix(5).joined(separator: "; "))
    }
  }

  // MARK: VoteStore

  /// The counter `key` in `namespace`, or nil when it does not exist.
  public func record(
    namespace: String, key: String
  ) async throws(VoteStoreError) -> CounterRecord? {
    try await readers.run { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).record(namespace: namespace, key: key)
    }
  }

  /// The values of `keys` in `namespace`, read from one snapshot; missing keys are absent.
  public func values(
    namespace: String, keys: [String]
  ) async throws(VoteStoreError) -> [String: Int64] {
    try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).values(namespace: namespace, keys: keys)
      }
    }
  }

  /// Creates a counter durably; nil (nothing changed) when it already exists.
  public func create(_ creation: CounterCreation) async throws(VoteStoreError) -> CounterRecord? {
    try CounterLimits.check(creation)
    return try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).insert(creation, now: currentMilliseconds())
    }
  }

  /// Applies one mutation in the next group commit; see ``CounterMutation`` for the rules.
  ///
  /// A voter's unvote on a counter already at zero removes the vote and reports `.atZero`.
  public func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult {
    if let creation = mutation.createIfMissing { try CounterLimits.check(creation) }
    return try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).apply(mutation, now: currentMilliseconds())
    }
  }

  /// Sets a counter (clamped at zero); `old` is its value before, or its creation value when
  /// this call created it. Nil for a missing counter without `createIfMissing`.
  public func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?
  ) async throws(VoteStoreError) -> (old: Int64, record: CounterRecord)? {
    try CounterLimits.check(value: value, "the value")
    if let createIfMissing { try CounterLimits.check(createIfMissing) }
    let result = try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).set(
        namespace: namespace, key: key, value: value, createIfMissing: createIfMissing,
        now: currentMilliseconds()
      ).map { SetResult(old: $0.old, record: $0.record) }
    }
    return result.map { ($0.old, $0.record) }
  }

  /// Counters, applied updates and voter records, from one snapshot.
  public func statistics() async throws(VoteStoreError) -> StoreStatistics {
    try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).statistics()
      }
    }
  }

  /// Every counter and its voters, from one snapshot.
  public func exportAll() async throws(VoteStoreError) -> VoteExport {
    try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).exportAll()
      }
    }
  }

  /// Loads an export in one transaction (all or nothing). Invalid exports throw `.invalid`.
  public func importAll(
    _ export: VoteExport, replace: Bool
  ) async throws(VoteStoreError) -> ImportSummary {
    try export.validate()
    return try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).importAll(export, replace: replace)
    }
  }

  /// Reads through a read connection, writes a probe row through the writer (a real
  /// commit), and throws the last write failure while writes are failing.
  public func checkHealth() async throws(VoteStoreError) {
    _ = try await readers.run { db throws(VoteStoreError) in
      try db.statement("SELECT value FROM meta WHERE name = 'schema_version'")
        .firstRow { $0.int64(0) }
    }
    // The probe's success does not clear a failure of real writes: on a full disk an update
    // of one row may still fit where every new counter fails.
    do throws(VoteStoreError) {
      try await writer.write { db throws(VoteStoreError) in
        try db.statement(
          """
          INSERT INTO meta (name, value) VALUES ('health_probe', ?1)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value
          """
        ).run([.integer(currentMilliseconds())])
      }
    } catch {
      health.record(error)
      throw error
    }
    try health.throwIfFailing()
  }

  /// How recent writes went (see ``StoreWriteHealth``).
  public func writeHealth() -> StoreWriteHealth { health.health() }

  /// Runs `work` in the writer's next group commit and records its outcome.
  private func write<T>(
    _ work: @escaping (SQLiteConnection) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    try await health.tracking { () async throws(VoteStoreError) -> T in
      try await writer.write(work)
    }
  }

  /// Commits queued writes, finishes queued reads, and closes every connection.
  public func close() async {
    await writer.close()
    await readers.close()
    await checkpointer.close()
  }

  private static func inReadTransaction<T>(
    _ db: SQLiteConnection, _ body: () throws(VoteStoreError) -> T
  ) throws(VoteStoreError) -> T {
    try db.statement("BEGIN").run()
    defer { try? db.statement("COMMIT").run() }
    return try body()
  }
}

/// A `set` result in a form that can cross from the writer thread.
private struct SetResult {
  var old: Int64
  var record: CounterRecord
}
