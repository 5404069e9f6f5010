/// A connection that a pool thread closes when the pool shuts down.
///
/// Sendable only so it can be handed to the one thread that uses it.
protocol ClosableConnection: AnyObject, Sendable {
  /// Releases the connection; it is not used afterwards.
  func close()
}

/// A few connections, each owned by its own thread, serving jobs from one shared queue.
///
/// The SQLite store reads through one (WAL lets readers see the last committed state while
/// the writer holds a transaction open); the PostgreSQL store does everything through one.
final class ConnectionPool<Connection: ClosableConnection>: Sendable {
  private let queue: JobQueue<Connection>
  private let threads: [DatabaseThread]

  /// Starts one thread per connection, named `name` and its number from 1 (at most 15 bytes
  /// in all, for the system to show); each owns and finally closes its connection.
  ///
  /// With `deadlineMilliseconds`, no caller waits longer for its work (``JobQueue``); with
  /// `watchesTaken` false, no caller waits longer for a connection to take its work.
  init(
    name: String, connections: [Connection], deadlineMilliseconds: Int? = nil,
    watchesTaken: Bool = true
  ) {
    let queue = JobQueue<Connection>(
      deadlineMilliseconds: deadlineMilliseconds, name: "\(name.prefix(11)) dog",
      watchesTaken: watchesTaken)
    self.queue = queue
    threads = connections.enumerated().map { index, connection in
      return DatabaseThread(name: "\(name) \(index + 1)") {
        while let jobs = queue.take(limit: 1) {
          for job in jobs {
            _ = job.run(connection)
            job.finish()
          }
        }
        connection.close()
      }
    }
  }

  /// Runs `work` on one of the pool's connections, on that connection's thread.
  func run<T>(
    _ work: @escaping (Connection) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<T, VoteStoreError>, Never>) in
      let job = DatabaseJob.make(work, continuation: continuation)
      if let refusal = queue.enqueue(job) { job.finish(refusal) }
    }
    return try result.get()
  }

  /// Queues `work` for one of the pool's connections without suspending: `completion` runs
  /// once with its result, on the connection's thread (or the queue's watchdog, for a job no
  /// thread took in time, or at once, for a closed pool).
  func submit<T>(
    _ work: @escaping (Connection) throws(VoteStoreError) -> T,
    completion: @escaping (sending Result<T, VoteStoreError>) -> Void
  ) {
    let job = DatabaseJob.make(work, completion: completion)
    if let refusal = queue.enqueue(job) { job.finish(refusal) }
  }

  /// Like ``close()`` without waiting (for a store released without being closed).
  func closeEventually() {
    queue.close()
  }

  /// Finishes queued jobs, refuses new ones, and closes the connections.
  func close() async {
    queue.close()
    for thread in threads { await thread.finished() }
  }
}
