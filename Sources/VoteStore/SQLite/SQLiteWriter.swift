/// The one thread that writes: group commit over a single SQLite connection.
///
/// It takes every queued write (up to a limit), runs them in one `BEGIN IMMEDIATE`
/// transaction, each inside its own `SAVEPOINT` so that a failing write is undone alone,
/// commits once (one fsync of the WAL for the whole group), and only then resumes each caller
/// with its own result. A caller is never told "done" before its change is durable.
final class SQLiteWriter: Sendable {
  private let queue: JobQueue<SQLiteConnection>
  private let thread: DatabaseThread

  /// Starts the writer thread; it owns `connection` from now on and closes it when done.
  /// `afterCommit` runs on the writer thread after each group's callers were resumed. With
  /// `changes`, the counter rows each commit changed are published to its cache before the
  /// commit's callers are resumed.
  init(
    connection: SQLiteConnection, maximumBatchSize: Int,
    changes: SQLiteCounterChanges? = nil,
    afterCommit: @escaping @Sendable (SQLiteConnection) -> Void = { _ in }
  ) {
    changes?.attach(to: connection)
    let queue = JobQueue<SQLiteConnection>()
    self.queue = queue
    let limit = max(1, maximumBatchSize)
    thread = DatabaseThread(name: "VoteStore.writer") {
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
      if !queue.enqueue(job) { job.finish(.closed) }
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
    if !queue.enqueue(job) { job.finish(.closed) }
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

/// The writer thread's state: the connection and its transaction statements.
private struct GroupCommitLoop {
  let connection: SQLiteConnection
  let changes: SQLiteCounterChanges?
  let afterCommit: @Sendable (SQLiteConnection) -> Void

  mutating func run(queue: JobQueue<SQLiteConnection>, limit: Int) {
    var pending: [DatabaseJob<SQLiteConnection>] = []
    while true {
      var batch = pending
      if batch.isEmpty {
        guard let next = queue.take(limit: limit) else { return }
        batch = next
      }
      pending = runBatch(batch)
    }
  }

  /// Runs one group; returns jobs that must run again because SQLite rolled back the whole
  /// transaction under them (their results were never reported).
  private func runBatch(_ batch: [DatabaseJob<SQLiteConnection>]) -> [DatabaseJob<SQLiteConnection>]
  {
    do throws(VoteStoreError) {
      try connection.statement("BEGIN IMMEDIATE").run()
    } catch {
      for job in batch { job.finish(error) }
      return []
    }
    var succeeded: [DatabaseJob<SQLiteConnection>] = []
    for (index, job) in batch.enumerated() {
      let failure: VoteStoreError?
      do throws(VoteStoreError) {
        try connection.statement("SAVEPOINT job").run()
        if job.run(connection) {
          try connection.statement("RELEASE job").run()
          succeeded.append(job)
          continue
        }
        failure = nil  // the job recorded its own error
      } catch {
        failure = error
      }
      // The job failed: its caller gets its error, and nothing of it may be kept.
      job.finish(failure)
      let rest = batch[(index + 1)...]
      if connection.isAutocommit {
        // SQLite rolled back the whole transaction (after FULL, IOERR, ...): the jobs that
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
    changes?.willCommit()
    do throws(VoteStoreError) {
      try connection.statement("COMMIT").run()
    } catch {
      rollBack()
      changes?.notCommitted()
      for job in succeeded { job.finish(error) }
      return []
    }
    // Memory shows the commit before anyone is told of it.
    changes?.committed(connection)
    for job in succeeded { job.finish() }
    afterCommit(connection)
    return []
  }

  private func rollBack() {
    if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
  }
}
