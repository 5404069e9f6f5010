/// The board store in the SQLite database of an ``SQLiteVoteStore``: its own writer thread
/// (group commit, as the counters') and read connections on the same file.
///
/// Both writers take SQLite's write lock in turn (WAL mode, the busy timeout of the options),
/// so a board write and a vote never interleave inside one transaction.
public final class SQLiteBoardStore: BoardStore {
  /// The database file.
  public let path: String
  private let writer: SQLiteWriter
  private let readers: ConnectionPool<SQLiteConnection>
  private let voterKey: VoterKey
  private let observers = BoardWriteObservers()
  /// Without a memory cache of counts: the shared serve lock, taken at the first write.
  private let writeLock: WriteLockOnce?
  /// Whether ``writeLock`` is this store's own (not the vote store's it shares).
  private let ownsWriteLock: Bool

  /// Opens the board tables in the vote store's database, creating or migrating them.
  ///
  /// When `store` keeps counts in memory, the board's writes to the features' counters
  /// (imported votes) reach that memory before they are acknowledged too.
  public convenience init(
    sharing store: SQLiteVoteStore, options: SQLiteVoteStoreOptions = .init()
  ) throws(VoteStoreError) {
    var options = options
    // Calls to the board tables wait on the same disk as the counters' (the store's bound).
    if options.answerDeadlineMilliseconds == nil {
      options.answerDeadlineMilliseconds = store.answerDeadlineMilliseconds
    }
    try self.init(
      path: store.path, options: options, cache: store.cache, writeLock: store.writeLock,
      ownsWriteLock: false)
  }

  /// Opens the board tables in the vote store database at `path`, applying the store's
  /// schema migrations (the board tables are one of them) as the vote store does. The vote
  /// store must have been opened on it before (its voter key file must exist).
  ///
  /// Throws `.io` when the file or the key file cannot be opened, `.incompatible` when its
  /// schema was written by a newer build.
  public convenience init(
    path: String, options: SQLiteVoteStoreOptions = .init()
  ) throws(VoteStoreError) {
    try self.init(
      path: path, options: options, cache: nil, writeLock: WriteLockOnce(databasePath: path),
      ownsWriteLock: true)
  }

  private init(
    path: String, options: SQLiteVoteStoreOptions, cache: CounterCache?,
    writeLock: WriteLockOnce?, ownsWriteLock: Bool
  ) throws(VoteStoreError) {
    self.path = path
    self.seesEveryWrite = cache != nil
    self.writeLock = writeLock
    self.ownsWriteLock = ownsWriteLock
    let timeout = Int32(clamping: options.busyTimeoutMilliseconds)
    let connection = try SQLiteConnection(
      path: path, create: true, busyTimeoutMilliseconds: timeout)
    var readConnections: [SQLiteConnection] = []
    do throws(VoteStoreError) {
      _ = try connection.strings("PRAGMA journal_mode = WAL")
      try connection.execute("PRAGMA synchronous = FULL")
      voterKey = try VoterKeyFile.load(VoterKeyFile.path(forDatabase: path))
      try SQLiteSchema.migrate(connection, context: MigrationContext(voterKey: voterKey))
      for _ in 0..<max(1, min(options.readConnections, 4)) {
        let reader = try SQLiteConnection(
          path: path, create: false, busyTimeoutMilliseconds: timeout)
        readConnections.append(reader)
        try reader.execute("PRAGMA query_only = ON")
      }
    } catch {
      for reader in readConnections { reader.close() }
      connection.close()
      throw error
    }
    writer = SQLiteWriter(
      name: "board writer", connection: connection, maximumBatchSize: options.maximumBatchSize,
      changes: cache.map(SQLiteCounterChanges.init),
      deadlineMilliseconds: options.answerDeadlineMilliseconds)
    readers = ConnectionPool(name: "board reader", connections: readConnections)
  }

  deinit {
    writer.closeEventually()
    readers.closeEventually()
  }

  /// Runs `body` inside one read transaction (one snapshot).
  public func read<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
    let box = BodyErrorBox()
    let key = voterKey
    let result = await readers.runCatching { db throws(VoteStoreError) in
      try db.statement("BEGIN").run()
      defer { try? db.statement("COMMIT").run() }
      return try box.run { try body(BoardTables(db: db, voterKey: key)) }
    }
    return try box.unwrap(result)
  }

  /// Runs `body` in the next group commit, inside its own savepoint.
  public func write<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
    try writeLock?.ensure()
    let box = BodyErrorBox()
    let key = voterKey
    let log = BoardWriteLog()
    let result = await writer.writeCatching { db throws(VoteStoreError) in
      try box.run { try body(BoardTables(db: db, voterKey: key, log: log)) }
    }
    await observers.tell(log, after: result, box)
    return try box.unwrap(result)
  }

  /// True when the store shares a vote store that keeps counts in memory (what `serve`
  /// opens): that store holds its database exclusively, so every board write to it goes
  /// through this object. False otherwise: other processes may write the file too.
  public let seesEveryWrite: Bool

  /// Adds an observer of this store's writes.
  public func addWriteObserver(_ observer: @escaping @Sendable (BoardWriteNotice) async -> Void) {
    observers.add(observer)
  }

  /// Commits queued writes and closes every connection.
  public func close() async {
    await writer.close()
    await readers.close()
    if ownsWriteLock { writeLock?.release() }
  }
}
