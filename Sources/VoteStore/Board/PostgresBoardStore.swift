/// The board store in the PostgreSQL database of a ``PostgresVoteStore``.
///
/// Each call runs on one of its own connections (each on a dedicated thread), in one
/// transaction; writes that create ids lock the project's sequence row, so instances sharing
/// the database never hand out one id twice, and the service's writes hold the project's
/// advisory lock (``BoardTables/lockProject(_:)``), so that two of them never both decide
/// on what they read before the other committed (two approvals of one suggestion, two
/// stages of one name, two features of one ref).
public final class PostgresBoardStore: BoardStore {
  private let pool: ConnectionPool<PostgresConnection>
  private let voterKey: VoterKey
  private let observers = BoardWriteObservers()

  /// Connects `poolSize` connections and applies the store's schema migrations (the board
  /// tables are one of them), as the vote store does.
  ///
  /// Throws `.io` when the server cannot be reached, `.incompatible` when the schema was
  /// written by a newer build. Every wait is bounded by `timeouts`, as the vote store's.
  public init(
    connectionString: String, poolSize: Int = 4, timeouts: PostgresTimeouts = .init()
  ) throws(VoteStoreError) {
    var connections: [PostgresConnection] = []
    do throws(VoteStoreError) {
      for _ in 0..<max(1, poolSize) {
        connections.append(
          try PostgresConnection(connectionString: connectionString, timeouts: timeouts))
      }
      try PostgresSchema.prepare(connections[0])
      voterKey = try PostgresSchema.voterKey(connections[0])
    } catch {
      for connection in connections { connection.close() }
      throw error
    }
    pool = ConnectionPool(
      name: "board pg", connections: connections,
      deadlineMilliseconds: timeouts.queueMilliseconds, watchesTaken: false)
  }

  deinit {
    pool.closeEventually()
  }

  /// Runs `body` in a `REPEATABLE READ` read-only transaction (one snapshot), once more on a
  /// fresh connection when the connection was lost (a database restarted since its last
  /// use), as the vote store's reads are: every pooled connection would otherwise cost one
  /// reader a 503 after a restart.
  public func read<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
    let box = BodyErrorBox()
    let key = voterKey
    let result = await pool.runCatching { db throws(VoteStoreError) in
      func attempt() throws(VoteStoreError) -> T {
        try db.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
          () throws(VoteStoreError) in try box.run { try body(BoardTables(db: db, voterKey: key)) }
        }
      }
      do throws(VoteStoreError) {
        return try attempt()
      } catch  where error.kind == .io && !db.isConnected {
        try db.ensureConnected()
        return try attempt()
      }
    }
    return try box.unwrap(result)
  }

  /// Runs `body` in one transaction.
  ///
  /// The body may run more than once: again on a fresh connection when the connection was
  /// lost before anything that could change data was sent (a database restart closed it),
  /// and up to three times more when a concurrent transaction made it fail
  /// (``VoteStoreError/Kind/conflict``); each failed run was rolled back, so only one is
  /// kept. Bodies that read before they decide call ``BoardTables/lockProject(_:)`` first,
  /// so that writers of one project, on any instance, run one after the other.
  public func write<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
    let box = BodyErrorBox()
    let key = voterKey
    let log = BoardWriteLog()
    let result = await pool.runCatching { db throws(VoteStoreError) in
      try db.retryingWrite { () throws(VoteStoreError) in
        try db.transaction { () throws(VoteStoreError) in
          try box.run { try body(BoardTables(db: db, voterKey: key, log: log)) }
        }
      }
    }
    await observers.tell(log, after: result, box)
    return try box.unwrap(result)
  }

  /// Adds an observer of this object's own writes (other instances' writes are not seen:
  /// ``seesEveryWrite`` is false).
  public func addWriteObserver(_ observer: @escaping @Sendable (BoardWriteNotice) async -> Void) {
    observers.add(observer)
  }

  /// Finishes queued calls and closes every connection.
  public func close() async {
    await pool.close()
  }
}
