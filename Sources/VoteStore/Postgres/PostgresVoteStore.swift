/// The vote store on PostgreSQL, for several service instances behind a load balancer.
///
/// Each call runs on one of `poolSize` connections, each owned by a dedicated thread (never
/// Swift's cooperative pool). Each write is one transaction that locks the counter's row, so
/// instances sharing the database never lose an update or count a voter twice. PostgreSQL's
/// own commit (with `fsync` and `synchronous_commit` on, its defaults) makes it durable
/// before the call returns; PostgreSQL groups concurrent commits by itself.
///
/// A lost connection fails the call in progress: a write with `.outcomeUnknown` once it has
/// sent a statement that may change data (its `COMMIT` may have been carried out before the
/// connection went), else with `.io` (nothing was changed); the next call on that connection
/// reconnects. A pooled connection the server closed while it was idle (a restart) is
/// replaced before a call uses it. Reads are retried once on a fresh connection, and so is a
/// write that was lost before it sent anything that could change data; a write that may have
/// committed never is. A write that a concurrent transaction made fail (``VoteStoreError/Kind/conflict``)
/// is run again, up to three times.
///
/// At most `connectionsPerCounter` of one counter's writes hold (or wait in the pool's queue
/// for) a connection at once; the counter's further writes wait in the process for their turn
/// (``PostgresCounterGate``), so a counter whose row is locked elsewhere, or that every client
/// votes on, leaves the other connections to the other counters.
public final class PostgresVoteStore: VoteStore {
  private let pool: ConnectionPool<PostgresConnection>
  private let gate: PostgresCounterGate
  private let health = WriteHealthTracker()
  private let voterKey: VoterKey

  /// The fingerprint of the voter key (16 hex digits), as exports name it.
  public var voterKeyFingerprint: String { voterKey.fingerprint }

  /// Connects `poolSize` connections with a libpq connection string (`postgresql://…` or
  /// `host=… dbname=…`) and creates the tables if they do not exist.
  ///
  /// Every wait on the server is bounded by `timeouts` (see ``PostgresTimeouts``): a frozen
  /// server makes calls throw `.timedOut` within the bound rather than hang.
  ///
  /// `connectionsPerCounter` (at least 1, default 2) bounds how many of the pool's connections
  /// the writes (votes, sets, creations) of one counter may hold or wait for at once; the
  /// counter's further writes wait in the process, without a connection, for their turn, at
  /// most `timeouts.queueMilliseconds`, and are then answered `.busy` without having run. Two
  /// keep a hot counter's next vote ready behind the one holding its row lock; more would only
  /// queue on the lock.
  ///
  /// Throws `.io` when the server cannot be reached, `.incompatible` when the schema is newer
  /// than this build. The initializer blocks while it connects: call it at start-up.
  public init(
    connectionString: String, poolSize: Int = 8, timeouts: PostgresTimeouts = .init(),
    connectionsPerCounter: Int = 2
  ) throws(VoteStoreError) {
    var connections: [PostgresConnection] = []
    let availability = PostgresAvailability(retryMilliseconds: timeouts.retryMilliseconds)
    do throws(VoteStoreError) {
      for _ in 0..<max(1, poolSize) {
        connections.append(
          try PostgresConnection(
            connectionString: connectionString, timeouts: timeouts, availability: availability))
      }
      try connections[0].withLongTimeouts(seconds: 600) { () throws(VoteStoreError) in
        try PostgresSchema.prepare(connections[0])
      }
      voterKey = try PostgresSchema.voterKey(connections[0])
    } catch {
      for connection in connections { connection.close() }
      throw error
    }
    pool = ConnectionPool(
      name: "votes pg", connections: connections,
      deadlineMilliseconds: timeouts.queueMilliseconds, watchesTaken: false)
    gate = PostgresCounterGate(
      limit: connectionsPerCounter, deadlineMilliseconds: timeouts.queueMilliseconds)
  }

  deinit {
    // A store released without close(): the threads finish queued work, then exit.
    pool.closeEventually()
  }

  private func read<T>(
    _ work: @escaping (PostgresCounterTable) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    try await pool.run { db throws(VoteStoreError) in
      do throws(VoteStoreError) {
        return try work(PostgresCounterTable(db: db))
      } catch  where error.kind == .io && !db.isConnected {
        try db.ensureConnected()
        return try work(PostgresCounterTable(db: db))
      }
    }
  }

  /// ``write(_:)`` for a write of one counter, through the counter's gate.
  private func write<T>(
    counter namespace: String, _ key: String,
    _ work: @escaping (PostgresCounterTable) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    let counter = PostgresCounterGate.Counter(namespace: namespace, key: key)
    let (gate, pool, health) = (gate, pool, health)
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<T, VoteStoreError>, Never>) in
      // Started at once, or on the connection thread of the write that frees the counter's
      // turn: the next write is queued without waiting for a task to be scheduled.
      gate.enter(
        counter,
        start: {
          pool.submit(Self.writing(work)) { result in
            Self.record(result, in: health)
            gate.leave(counter)
            continuation.resume(returning: result)
          }
        },
        refuse: { continuation.resume(returning: .failure($0)) })
    }
    return try result.get()
  }

  /// `work` as one write on a pool connection: its own transaction, run again as
  /// ``PostgresConnection/retryingWrite(_:)`` says.
  private static func writing<T>(
    _ work: @escaping (PostgresCounterTable) throws(VoteStoreError) -> T
  ) -> (PostgresConnection) throws(VoteStoreError) -> T {
    { db throws(VoteStoreError) in
      try db.retryingWrite { () throws(VoteStoreError) in try work(PostgresCounterTable(db: db)) }
    }
  }

  /// Records a write's outcome in `health`. A row locked elsewhere is that counter's
  /// contention, not the store failing: counted, one locked counter made /healthz answer 503
  /// (every instance that took a vote on it taken out of a load balancer) while every other
  /// counter was served.
  private static func record<T>(_ result: Result<T, VoteStoreError>, in health: WriteHealthTracker)
  {
    switch result {
    case .success: health.record(nil)
    case .failure(let error): if !PostgresConnection.isLockWait(error) { health.record(error) }
    }
  }

  /// The `lock_timeout` of the connection a call gets (for tests).
  func lockTimeoutSetting() async throws(VoteStoreError) -> String? {
    try await read { table throws(VoteStoreError) in
      try table.db.query("SELECT current_setting('lock_timeout')").first?.first ?? nil
    }
  }

  /// How many writes of `counter` are past its gate and how many wait there (for tests).
  func counterGateState(of counter: PostgresCounterGate.Counter) -> (passed: Int, waiting: Int) {
    gate.state(of: counter)
  }

  private func write<T>(
    _ work: @escaping (PostgresCounterTable) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    let result: Result<T, VoteStoreError>
    do throws(VoteStoreError) {
      result = .success(try await pool.run(Self.writing(work)))
    } catch {
      result = .failure(error)
    }
    Self.record(result, in: health)
    return try result.get()
  }

  /// The counter `key` in `namespace`, or nil when it does not exist.
  public func record(
    namespace: String, key: String
  ) async throws(VoteStoreError) -> CounterRecord? {
    try await read { table throws(VoteStoreError) in
      try table.record(namespace: namespace, key: key)
    }
  }

  /// The values of `keys` in `namespace`, in one query; missing keys are absent.
  public func values(
    namespace: String, keys: [String]
  ) async throws(VoteStoreError) -> CounterValues {
    try await read { table throws(VoteStoreError) in
      try table.values(namespace: namespace, keys: keys)
    }
  }

  /// Creates a counter in one statement; nil (nothing changed) when it already exists.
  public func create(_ creation: CounterCreation) async throws(VoteStoreError) -> CounterRecord? {
    try CounterLimits.check(creation)
    return try await write(counter: creation.namespace, creation.key) {
      table throws(VoteStoreError) in
      try table.insert(creation, now: currentMilliseconds())
    }
  }

  /// Applies one mutation in one transaction; see ``CounterMutation`` for the rules.
  ///
  /// A voter's unvote on a counter already at zero removes the vote and reports `.atZero`.
  public func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult {
    if let creation = mutation.createIfMissing { try CounterLimits.check(creation) }
    var mutation = mutation
    mutation.voter = mutation.voter.map(voterKey.hash)
    return try await write(counter: mutation.namespace, mutation.key) {
      [mutation] table throws(VoteStoreError) in
      try table.apply(mutation, now: currentMilliseconds())
    }
  }

  /// Sets a counter (clamped at zero); `old` is its value before, or its creation value when
  /// this call created it. Nil for a missing counter without `createIfMissing`.
  public func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?
  ) async throws(VoteStoreError) -> (old: Int64, record: CounterRecord)? {
    try CounterLimits.check(value: value, "the value")
    if let createIfMissing { try CounterLimits.check(createIfMissing) }
    let result = try await write(counter: namespace, key) { table throws(VoteStoreError) in
      try table.set(
        namespace: namespace, key: key, value: value, createIfMissing: createIfMissing,
        now: currentMilliseconds()
      ).map { PostgresSetResult(old: $0.old, record: $0.record) }
    }
    return result.map { ($0.old, $0.record) }
  }

  /// Counters, applied updates and voter records.
  public func statistics() async throws(VoteStoreError) -> StoreStatistics {
    try await read { table throws(VoteStoreError) in try table.statistics() }
  }

  /// How many counters the store holds (one `count(*)`, not ``statistics()``'s other totals).
  public func counterCount() async throws(VoteStoreError) -> Int64 {
    try await read { table throws(VoteStoreError) in try table.counterCount() }
  }

  /// Every counter and its voters, from one snapshot (`REPEATABLE READ`).
  public func exportAll() async throws(VoteStoreError) -> VoteExport {
    var export = try await read { table throws(VoteStoreError) in try table.exportAll() }
    export.version = VoteExport.currentVersion
    export.voterKey = voterKey.fingerprint
    return export
  }

  /// Streams every counter and its voters as export JSON, from one snapshot (`REPEATABLE
  /// READ`), fetching 1,000 counters at a time through a cursor.
  public func exportAll(
    to write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(VoteStoreError) -> ExportSummary {
    let fingerprint = voterKey.fingerprint
    return try await read { table throws(VoteStoreError) in
      var writer = ExportJSONWriter(sink: ExportJSONWriter.forwarding(write))
      try table.export(into: &writer)
      return try writer.finish(voterKey: fingerprint)
    }
  }

  /// Loads an export in one transaction (all or nothing). Invalid exports throw `.invalid`.
  public func importAll(
    _ export: VoteExport, replace: Bool
  ) async throws(VoteStoreError) -> ImportSummary {
    try export.validate()
    let hashed = try export.hashingVoters(with: voterKey)
    return try await write { table throws(VoteStoreError) in
      try table.importAll(hashed, replace: replace)
    }
  }

  /// Loads a backup's counters and boards in one transaction (see the protocol).
  public func restoreAll(votes export: VoteExport, boards: BoardBackup) async throws(VoteStoreError)
    -> ImportSummary
  {
    let restore = try PreparedRestore(votes: export, boards: boards, voterKey: voterKey)
    return try await write { table throws(VoteStoreError) in
      try table.db.transaction { () throws(VoteStoreError) in
        try restore.write(on: table.db) { votes throws(VoteStoreError) in
          try table.importRows(votes, replace: false)
        }
      }
    }
  }

  /// Loads a checked export file in one transaction (all or nothing), reading its counters
  /// from the file one at a time inside it.
  public func importAll(
    _ export: CheckedVoteExport, replace: Bool
  ) async throws(VoteStoreError) -> ImportSummary {
    let hashing = try export.voterHashing(with: voterKey)
    return try await write { table throws(VoteStoreError) in
      try table.db.transaction { () throws(VoteStoreError) in
        var summary = ImportSummary(imported: 0, skipped: 0)
        try export.forEachCounter { counter throws(VoteStoreError) in
          try table.importCounter(hashing(counter), replace: replace, into: &summary)
        }
        try table.finishImport()
        return summary
      }
    }
  }

  /// Loads a backup whose counters are a checked export file in one transaction, reading the
  /// counters from the file one at a time inside it (see the protocol).
  public func restoreAll(
    votes export: CheckedVoteExport, boards: BoardBackup
  ) async throws(VoteStoreError) -> ImportSummary {
    let hashing = try export.voterHashing(with: voterKey)
    let kinds = try boards.checkedKinds()
    let voterKey = voterKey
    return try await write { table throws(VoteStoreError) in
      try table.db.transaction { () throws(VoteStoreError) in
        var summary = ImportSummary(imported: 0, skipped: 0)
        try export.forEachCounter { counter throws(VoteStoreError) in
          try table.importCounter(hashing(counter), replace: false, into: &summary)
        }
        try table.finishImport()
        _ = try boards.restoreRows(
          into: BoardTables(db: table.db, voterKey: voterKey), kinds: kinds)
        return summary
      }
    }
  }

  /// Checks that the server answers, the tables are there, it accepts writes (it is not a
  /// read-only standby), and recent writes are not failing.
  public func checkHealth() async throws(VoteStoreError) {
    try await read { table throws(VoteStoreError) in
      let row = try table.db.query(
        "SELECT pg_is_in_recovery(), (SELECT count(*) FROM meta)"
      ).first
      if PostgresText.bool(row?[0]) {
        throw VoteStoreError(.io, "PostgreSQL is a read-only standby")
      }
    }
    try health.throwIfFailing()
  }

  /// How recent writes went (see ``StoreWriteHealth``).
  public func writeHealth() -> StoreWriteHealth { health.health() }

  /// Finishes queued calls, refuses new ones, and closes every connection.
  public func close() async {
    await pool.close()
  }

  /// One page of a namespace's counters by key (see VoteStore+Paging.swift).
  public func counters(namespace: String, after: String, limit: Int) async throws(VoteStoreError)
    -> [CounterRecord]
  {
    try await read { table throws(VoteStoreError) in try table.page(namespace, after, limit) }
  }
}

/// A `set` result in a form that can cross from a pool thread.
private struct PostgresSetResult {
  var old: Int64
  var record: CounterRecord
}
