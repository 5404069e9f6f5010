/// A few read connections, each on its own thread, serving reads in parallel with the writer
/// (WAL lets readers see the last committed state while a write transaction is open).
final class SQLiteReaderPool: Sendable {
  private let queue: JobQueue
  private let threads: [DatabaseThread]

  /// Starts one thread per connection; each owns and finally closes its connection.
  init(connections: [SQLiteConnection]) {
    let queue = JobQueue()
    self.queue = queue
    threads = connections.enumerated().map { index, connection in
      DatabaseThread(name: "VoteStore.reader\(index)") {
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

  /// Runs `work` on a read connection.
  func read<T>(
    _ work: @escaping (SQLiteConnection) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<T, VoteStoreError>, Never>) in
      let job = DatabaseJob.make(work, continuation: continuation)
      if !queue.enqueue(job) { job.finish(.closed) }
    }
    return try result.get()
  }

  /// Finishes queued reads, refuses new ones, and closes the connections.
  func close() async {
    queue.close()
    for thread in threads { await thread.finished() }
  }
}
