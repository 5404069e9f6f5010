/// The one thread that writes: group commit over a single SQLite connection.
///
/// It takes every queued write (up to a limit), runs them in one `BEGIN IMMEDIATE`
/// transaction, commits once (one fsync of the WAL for the whole group), and only then resumes
/// each caller with its own result. A caller is never told "done" before its change is
/// durable. A group runs first without savepoints; if one of its writes fails, the group is
/// rolled back and run again with each write inside its own `SAVEPOINT`, so that the failing
/// write is undone and answered alone.
final class SQLiteWriter: Sendable {
  private let queue: JobQueue<SQLiteConnection>
  private let thread: DatabaseThread

  /// Starts the writer thread, named `name` (at most 15 bytes, for the system to show); it
  /// owns `connection` from now on and closes it when done.
  /// `afterCommit` runs on the writer thread after each group's callers were resumed. With
  /// `changes`, the counter rows each commit changed are published to its cache before the
  /// commit's callers are resumed.
  ///
  /// With `deadlineMilliseconds`, no caller waits longer for its write (``JobQueue``).
  init(
    name: String, connection: SQLiteConnection, maximumBatchSize: Int,
    changes: SQLiteCounterChanges? = nil, deadlineMilliseconds: Int? = nil,
    afterCommit: @escaping @Sendable (SQLiteConnection) -> Void = { _ in }
  ) {
    changes?.attach(to: connection)
    let queue = JobQueue<SQLiteConnection>(
      deadlineMilliseconds: deadlineMilliseconds, name: "\(name.prefix(11)) dog")
    self.queue = queue
    let limit = max(1, maximumBatchSize)
    thread = DatabaseThread(name: name) {
      var loop = GroupCommitLoop(
        connection: connection, changes: changes, afterCommit: afterCommit)
      loop.run(queue: queue, limit: limit)
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
      if let refusal = queue.enqueue(job) { job.finishAll(refusal) }
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
    if let refusal = queue.enqueue(job) { job.finishAll(refusal) }
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
    if let refusal = queue.enqueue(job) { job.finishAll(refusal) }
  }

  /// Why writes are refused at once, if they are: one that timed out is still in the
  /// writer's hands (a stalled disk).
  var stalled: VoteStoreError? { queue.stalled }

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

  func finish(_ error: VoteStoreError? = nil) { job.finish(unit: index, error) }
}

/// The writer thread's state: the connection and its transaction statements.
private struct GroupCommitLoop {
  let connection: SQLiteConnection
  let changes: SQLiteCounterChanges?
  let afterCommit: @Sendable (SQLiteConnection) -> Void
  /// The failed fsync after which this writer takes no more writes (see ``commit(_:)``).
  /// Why the writer takes no more writes (a failed sync, a database file gone), once it is so.
  private var stopped: VoteStoreError?

  init(
    connection: SQLiteConnection, changes: SQLiteCounterChanges?,
    afterCommit: @escaping @Sendable (SQLiteConnection) -> Void
  ) {
    self.connection = connection
    self.changes = changes
    self.afterCommit = afterCommit
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
    }
  }

  /// Runs one group; returns units that must run again because SQLite rolled back the whole
  /// transaction under them (their results were never reported).
  private mutating func runBatch(_ batch: [WriteUnit]) -> [WriteUnit] {
    if let stopped {
      for unit in batch { unit.finish(stopped) }
      return []
    }
    do throws(VoteStoreError) {
      try connection.statement("BEGIN IMMEDIATE").run()
    } catch {
      for unit in batch { unit.finish(error) }
      return []
    }
    if batch.count == 1 {
      // A group of one (the usual group of votes, gathered into one job): no savepoint, since
      // undoing the unit is undoing the transaction.
      return runAlone(batch[0])
    }
    if batch.count > 1 {
      switch runWithoutSavepoints(batch) {
      case .succeeded: return commit(batch)
      case .beganAgain: break
      case .failed(let error):
        for unit in batch { unit.finish(error) }
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
      unit.finish(failure)
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

  /// Runs a group of one unit in the open transaction, without a savepoint: when it fails, the
  /// transaction is rolled back and the unit answered with its error.
  private mutating func runAlone(_ unit: WriteUnit) -> [WriteUnit] {
    if unit.run(connection) { return commit([unit]) }
    if connection.isAutocommit {
      // SQLite rolled back the transaction itself (after FULL, IOERR, ...): the unit's error
      // stands, as in a savepoint of a larger group.
      changes?.discard()
      unit.finish(nil)
      return []
    }
    rollBack()
    changes?.discard()
    unit.finish(nil)  // the unit recorded its own error
    return []
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
  ///
  /// A commit whose fsync failed (``VoteStoreError/Kind/notDurable``) is answered as such: its
  /// frames are in the WAL, and a recovery may find them, so its outcome is unknown. And the
  /// writer takes no more writes: after a failed fsync the kernel may have dropped the pages
  /// it could not write, so no later fsync could vouch for the frames before its own
  /// (PostgreSQL stops on a failed fsync for the same reason). The store must be reopened.
  ///
  /// Nor is a commit made into a database file that was deleted or replaced under the open
  /// store: it would be acknowledged and then lost with the file at the next open. Its units
  /// fail with nothing written, and so does every later write.
  private mutating func commit(_ succeeded: [WriteUnit]) -> [WriteUnit] {
    if connection.fileHasMoved {
      rollBack()
      changes?.discard()
      let error = connection.movedFileError
      stopped = error
      for unit in succeeded { unit.finish(error) }
      return []
    }
    changes?.willCommit()
    do throws(VoteStoreError) {
      try connection.statement("COMMIT").run()
    } catch {
      rollBack()
      changes?.notCommitted()
      if error.kind == .notDurable {
        stopped = VoteStoreError(
          .io,
          "the store takes no more writes until it is reopened, after a failed sync: "
            + error.message,
          publicDetail: "the store takes no more writes until it is reopened, after a failed sync")
      }
      for unit in succeeded { unit.finish(error) }
      return []
    }
    // Memory shows the commit before anyone is told of it.
    changes?.committed(connection)
    for unit in succeeded { unit.finish() }
    afterCommit(connection)
    return []
  }

  private func rollBack() {
    if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
  }
}
