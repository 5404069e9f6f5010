/// The one thread that writes: group commit over a single SQLite connection.
///
/// It takes every queued write (up to a limit), runs them in one `BEGIN IMMEDIATE`
/// transaction, commits once (one fsync of the WAL for the whole group), and only then resumes
/// each caller with its own result. A caller is never told "done" before its change is
/// durable. With a ``SQLiteWALSyncer`` the connection commits without syncing
/// (`synchronous = NORMAL`) and the syncer resumes the callers after its own sync of the WAL,
/// while this thread already runs the next group. A group runs first without savepoints; if one of its writes fails, the group is
/// rolled back and run again with each write inside its own `SAVEPOINT`, so that the failing
/// write is undone and answered alone.
final class SQLiteWriter: Sendable {
  private let queue: JobQueue<SQLiteConnection>
  private let thread: DatabaseThread

  /// Starts the writer thread; it owns `connection` from now on and closes it when done.
  /// `afterCommit` runs on the writer thread after each group's callers were resumed. With
  /// `changes`, the counter rows each commit changed are published to its cache before the
  /// commit's callers are resumed. With `syncer`, every result goes through it (the
  /// connection must commit with `synchronous = NORMAL` in WAL mode), and the writer stops it
  /// when it stops.
  init(
    connection: SQLiteConnection, maximumBatchSize: Int,
    changes: SQLiteCounterChanges? = nil, syncer: SQLiteWALSyncer? = nil,
    afterCommit: @escaping @Sendable (SQLiteConnection) -> Void = { _ in }
  ) {
    changes?.attach(to: connection)
    let queue = JobQueue<SQLiteConnection>()
    self.queue = queue
    let limit = max(1, maximumBatchSize)
    thread = DatabaseThread(name: "VoteStore.writer") {
      var loop = GroupCommitLoop(
        connection: connection, changes: changes, syncer: syncer, afterCommit: afterCommit)
      loop.run(queue: queue, limit: limit)
      syncer?.close()
      connection.close()
    }
  }

  /// Runs `work` inside the next group transaction and returns once it is committed.
  func write<T>(
    _ work: @escaping (SQLiteConnection) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<T, VoteStoreError>, Never>) in
      let job = DatabaseJob.make(work, continuation: continuation)
      if !queue.enqueue(job) { job.finishAll(.closed) }
    }
    return try result.get()
  }

  /// Queues `work` for the next group transaction without waiting: `completion` runs on the
  /// writer thread once it is committed (or failed), before the commit's other callers are
  /// told only in the order of the batch.
  func submit<T>(
    _ work: @escaping (SQLiteConnection) throws(VoteStoreError) -> T,
    completion: @escaping @Sendable (Result<T, VoteStoreError>) -> Void
  ) {
    let job = DatabaseJob.make(work, completion: completion)
    if !queue.enqueue(job) { job.finishAll(.closed) }
  }

  /// Queues `count` writes at once (one hand-over, one wake-up): write `i` runs
  /// `work(connection, i)` in its own savepoint of the next group transaction, so one that
  /// fails is undone and answered alone; `completion` runs once on the writer thread with
  /// every write's result, in order, when the last is committed (or failed).
  func submitBatch<T>(
    count: Int,
    _ work: @escaping (SQLiteConnection, Int) throws(VoteStoreError) -> T,
    completion: @escaping @Sendable ([Result<T, VoteStoreError>]) -> Void
  ) {
    let job = DatabaseJob.makeBatch(count: count, work, completion: completion)
    if !queue.enqueue(job) { job.finishAll(.closed) }
  }

  /// Commits what is queued, refuses new work, and closes the connection.
  func close() async {
    queue.close()
    await thread.finished()
  }

  /// Like ``close()`` without waiting (for a store released without being closed).
  func closeEventually() {
    queue.close()
  }
}

/// One write of a group: a unit of a queued job.
private struct WriteUnit {
  let job: DatabaseJob<SQLiteConnection>
  let index: Int

  func run(_ connection: SQLiteConnection) -> Bool { job.run(connection, unit: index) }

  func outcome(_ error: VoteStoreError?) -> SQLiteWALSyncer.Outcome {
    SQLiteWALSyncer.Outcome(job: job, unit: index, error: error)
  }
}

/// The writer thread's state: the connection and its transaction statements.
private struct GroupCommitLoop {
  let connection: SQLiteConnection
  let changes: SQLiteCounterChanges?
  let syncer: SQLiteWALSyncer?
  let afterCommit: @Sendable (SQLiteConnection) -> Void
  /// Results of the current batch not passed on yet (with a syncer: they go to it together).
  private var outcomes: [SQLiteWALSyncer.Outcome] = []

  init(
    connection: SQLiteConnection, changes: SQLiteCounterChanges?, syncer: SQLiteWALSyncer?,
    afterCommit: @escaping @Sendable (SQLiteConnection) -> Void
  ) {
    self.connection = connection
    self.changes = changes
    self.syncer = syncer
    self.afterCommit = afterCommit
  }

  /// Makes `unit`'s result final with `error` (nil: its own result): at once without a
  /// syncer, else once the syncer passes it on.
  private mutating func finish(_ unit: WriteUnit, _ error: VoteStoreError? = nil) {
    if syncer == nil {
      unit.job.finish(unit: unit.index, error)
    } else {
      outcomes.append(unit.outcome(error))
    }
  }

  /// Hands the batch's results to the syncer; `committed` when some belong to a commit.
  private mutating func deliver(committed: Bool) {
    guard let syncer, !outcomes.isEmpty else { return }
    syncer.deliver(outcomes, committed: committed)
    outcomes.removeAll(keepingCapacity: true)
  }

  mutating func run(queue: JobQueue<SQLiteConnection>, limit: Int) {
    var pending: [WriteUnit] = []
    while true {
      var batch = pending
      if batch.isEmpty {
        guard let next = queue.take(limit: limit) else { return }
        for job in next {
          for index in 0..<job.units { batch.append(WriteUnit(job: job, index: index)) }
        }
      }
      pending = runBatch(batch)
      deliver(committed: false)
    }
  }

  /// Runs one group; returns units that must run again because SQLite rolled back the whole
  /// transaction under them (their results were never reported).
  private mutating func runBatch(_ batch: [WriteUnit]) -> [WriteUnit] {
    if let error = syncer?.refusal {
      for unit in batch { finish(unit, error) }
      return []
    }
    do throws(VoteStoreError) {
      try connection.statement("BEGIN IMMEDIATE").run()
    } catch {
      for unit in batch { finish(unit, error) }
      return []
    }
    if batch.count > 1 {
      switch runWithoutSavepoints(batch) {
      case .succeeded: return commit(batch)
      case .beganAgain: break
      case .failed(let error):
        for unit in batch { finish(unit, error) }
        return []
      }
    }
    var succeeded: [WriteUnit] = []
    succeeded.reserveCapacity(batch.count)
    for (index, unit) in batch.enumerated() {
      let failure: VoteStoreError?
      do throws(VoteStoreError) {
        try connection.statement("SAVEPOINT job").run()
        if unit.run(connection) {
          try connection.statement("RELEASE job").run()
          succeeded.append(unit)
          continue
        }
        failure = nil  // the unit recorded its own error
      } catch {
        failure = error
      }
      // The unit failed: its caller gets its error, and nothing of it may be kept.
      finish(unit, failure)
      let rest = batch[(index + 1)...]
      if connection.isAutocommit {
        // SQLite rolled back the whole transaction (after FULL, IOERR, ...): the units that
        // had succeeded lost their changes too, and run again in a new transaction.
        return succeeded + rest
      }
      do throws(VoteStoreError) {
        try connection.statement("ROLLBACK TO job").run()
        try connection.statement("RELEASE job").run()
      } catch {
        rollBack()
        return succeeded + rest
      }
    }
    return commit(succeeded)
  }

  /// What ``runWithoutSavepoints(_:)`` did.
  private enum OptimisticRun {
    /// Every unit succeeded; the transaction is open, waiting for its commit.
    case succeeded
    /// A unit failed: its transaction was rolled back and a new one begun, for the units to
    /// run again one savepoint each.
    case beganAgain
    /// A unit failed and no new transaction could be begun.
    case failed(VoteStoreError)
  }

  /// Runs every unit straight in the open transaction, without a savepoint each (two
  /// statements less per write): nearly every group succeeds whole. When one unit fails,
  /// nothing of the run is kept or reported: the transaction is rolled back and begun again,
  /// and the caller runs the units once more, each in its own savepoint, so the failure
  /// stays the failing unit's own. (A unit may run again anyway: see the whole-transaction
  /// rollback in ``runBatch(_:)``.)
  private func runWithoutSavepoints(_ batch: [WriteUnit]) -> OptimisticRun {
    var failed = false
    for unit in batch where !unit.run(connection) {
      failed = true
      break
    }
    guard failed else { return .succeeded }
    rollBack()
    changes?.discard()
    do throws(VoteStoreError) {
      try connection.statement("BEGIN IMMEDIATE").run()
    } catch {
      return .failed(error)
    }
    return .beganAgain
  }

  /// Commits the open transaction holding `succeeded`, publishes what it changed, and
  /// answers its units.
  private mutating func commit(_ succeeded: [WriteUnit]) -> [WriteUnit] {
    changes?.willCommit()
    do throws(VoteStoreError) {
      try connection.statement("COMMIT").run()
    } catch {
      rollBack()
      changes?.notCommitted()
      for unit in succeeded { finish(unit, error) }
      return []
    }
    // Memory shows the commit before anyone is told of it.
    changes?.committed(connection)
    for unit in succeeded { finish(unit) }
    deliver(committed: true)
    afterCommit(connection)
    return []
  }

  private func rollBack() {
    if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
  }
}
