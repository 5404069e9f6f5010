import Foundation

/// A closable FIFO of ``DatabaseJob``s shared between callers and database threads.
///
/// With a deadline, no caller waits longer than it for an answer, whatever the database
/// thread is stuck on (a disk that stopped answering an `fsync`, a frozen file system): a
/// watchdog thread answers a job its thread took and has not finished by then with
/// ``VoteStoreError/Kind/timedOut`` (its outcome is unknown: the thread may still commit it),
/// and one still waiting in the queue with an error saying nothing was changed, and takes it
/// out of the queue. While a job it timed out is still in its thread's hands, new jobs are
/// refused at once with that error, so callers hear in time instead of queueing behind it;
/// once the thread lets go of it, jobs are taken again.
///
/// A queue that does not watch taken jobs (``init(deadlineMilliseconds:name:watchesTaken:)``
/// with `watchesTaken: false`, PostgreSQL's pools, whose every wait on the server is bounded
/// already) bounds only the wait for a thread: a job no thread took within the deadline is
/// answered with ``VoteStoreError/Kind/busy`` (nothing was changed) and never run, and
/// nothing is ever refused at once.
final class JobQueue<Connection>: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [DatabaseJob<Connection>] = []
  private var head = 0
  private var closed = false
  /// The longest a caller waits for its job, in nanoseconds; nil for no limit.
  private let deadline: UInt64?
  /// The deadline in seconds as the messages say it (`30`, `0.3`).
  private let deadlineText: String
  /// The jobs queued with a deadline that are not settled yet, oldest first.
  private var watched: [DatabaseJob<Connection>] = []
  private var watchedHead = 0
  /// Why jobs are refused at once: a job that timed out is still in its thread's hands.
  private var stall: VoteStoreError?
  /// Whether the deadline also answers jobs a thread took (else only those still queued).
  private let watchesTaken: Bool

  /// Creates a queue; with `deadlineMilliseconds`, its watchdog thread (named `name`) answers
  /// jobs that wait longer than that: with `watchesTaken` false, only jobs no thread took.
  init(deadlineMilliseconds: Int? = nil, name: String = "jobs watchdog", watchesTaken: Bool = true)
  {
    deadline = deadlineMilliseconds.map { UInt64(max(1, $0)) * 1_000_000 }
    self.watchesTaken = watchesTaken
    let seconds = Double(max(1, deadlineMilliseconds ?? 0)) / 1000
    deadlineText = seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    guard deadline != nil else { return }
    let thread = Thread { [self] in
      DatabaseThread.nameForTheSystem(name)
      while sweep() { usleep(100_000) }
    }
    thread.name = name
    thread.stackSize = 1 << 18
    thread.start()
  }

  /// Adds a job; nil when queued, else why not (the queue is closed, or its thread is stuck
  /// on a job that timed out), and the job is not queued.
  func enqueue(_ job: DatabaseJob<Connection>) -> VoteStoreError? {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return .closed }
    if let stall { return stall }
    if deadline != nil {
      job.enqueuedAt = DispatchTime.now().uptimeNanoseconds
      watched.append(job)
    }
    jobs.append(job)
    condition.signal()
    return nil
  }

  /// Waits for work and takes up to `limit` jobs; nil once closed and drained.
  func take(limit: Int) -> [DatabaseJob<Connection>]? {
    condition.lock()
    defer { condition.unlock() }
    while head == jobs.count && !closed { condition.wait() }
    guard head < jobs.count else { return nil }
    let end = min(jobs.count, head + limit)
    let batch = Array(jobs[head..<end])
    for job in batch { job.taken = true }
    head = end
    compactJobs()
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

  /// Why new jobs are refused at once, if they are: a job that timed out is still in its
  /// thread's hands.
  var stalled: VoteStoreError? {
    condition.lock()
    defer { condition.unlock() }
    return stall
  }

  private func compactJobs() {
    Self.compact(&jobs, head: &head)
  }

  /// Drops the first `head` elements of `list` once they are all of it or at least half (so
  /// each element is moved at most once on average, and a list holds at most twice what is
  /// still in it).
  private static func compact(_ list: inout [DatabaseJob<Connection>], head: inout Int) {
    if head == list.count {
      list.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 0 && head * 2 >= list.count {
      list.removeFirst(head)
      head = 0
    }
  }

  /// One look of the watchdog: answers the jobs past the deadline and says whether the queue
  /// still needs watching (false once it is closed and every job is settled).
  ///
  /// `clock` is read under the lock (a job queued between an earlier reading and the lock
  /// would be newer than it); a job newer than the reading all the same is not late.
  func sweep(clock: () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) -> Bool {
    guard let deadline else { return false }
    var late: [(answer: (VoteStoreError) -> Void, taken: Bool)] = []
    condition.lock()
    let now = clock()
    while watchedHead < watched.count && watched[watchedHead].isSettled {
      watchedHead += 1
    }
    Self.compact(&watched, head: &watchedHead)
    var stuck = false
    for job in watched[watchedHead...] {
      if job.isSettled { continue }
      // Taken jobs are their thread's to finish; a later queued one may still be late.
      if !watchesTaken && job.taken { continue }
      if job.isExpired {
        // Answered already, still in its thread's hands (not taken: removed below).
        stuck = stuck || job.taken
        continue
      }
      // Oldest first: the first job within the deadline ends the look.
      guard job.enqueuedAt <= now, now - job.enqueuedAt >= deadline else { break }
      if let answer = job.claimExpiry() {
        late.append((answer, job.taken))
        stuck = stuck || job.taken
      }
    }
    // Jobs answered before their thread took them are not run at all.
    while head < jobs.count && jobs[head].isExpired { head += 1 }
    compactJobs()
    let waited = deadlineText
    stall =
      stuck
      ? VoteStoreError(
        .io,
        "the database has not finished a call in \(waited) s (a stalled disk?); new calls are "
          + "refused until it does, and nothing was changed",
        publicDetail: "the database is not answering; nothing was changed") : nil
    let watching = !(closed && watchedHead == watched.count && head == jobs.count)
    condition.unlock()
    for (answer, taken) in late {
      if !watchesTaken {
        answer(
          VoteStoreError(
            .busy,
            "no database connection was free within \(waited) s (each busy with an earlier "
              + "call: a lock held elsewhere, or more calls than connections); nothing was changed",
            publicDetail: "the database is busy; nothing was changed"))
        continue
      }
      answer(
        taken
          ? VoteStoreError(
            .timedOut,
            "the database did not finish the call within \(waited) s (a stalled disk?); the "
              + "change may or may not have been made")
          : VoteStoreError(
            .io,
            "the database did not take the call within \(waited) s (busy with an earlier one); "
              + "nothing was changed",
            publicDetail: "the database is not answering; nothing was changed"))
    }
    return watching
  }
}
