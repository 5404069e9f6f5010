import Foundation

/// A closable FIFO of ``DatabaseJob``s shared between callers and database threads.
final class JobQueue<Connection>: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [DatabaseJob<Connection>] = []
  private var head = 0
  private var closed = false

  /// Adds a job; false (and the job is not queued) once the queue is closed.
  func enqueue(_ job: DatabaseJob<Connection>) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return false }
    jobs.append(job)
    condition.signal()
    return true
  }

  /// Waits for work and takes up to `limit` jobs; nil once closed and drained.
  func take(limit: Int) -> [DatabaseJob<Connection>]? {
    condition.lock()
    defer { condition.unlock() }
    while head == jobs.count && !closed { condition.wait() }
    guard head < jobs.count else { return nil }
    let end = min(jobs.count, head + limit)
    let batch = Array(jobs[head..<end])
    head = end
    if head == jobs.count {
      jobs.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 4096 {
      jobs.removeFirst(head)
      head = 0
    }
    if head < jobs.count { condition.signal() }
    return batch
  }

  /// Refuses new jobs; threads drain what is queued and then stop.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
