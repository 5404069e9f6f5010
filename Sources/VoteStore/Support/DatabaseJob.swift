import Foundation

/// Database work run on a database thread, in one or more units, and finished (its caller
/// resumed) once its outcome is final: for a write, after the transaction that holds it
/// committed.
///
/// A job of several units (``makeBatch(count:_:completion:)``) is many writes handed over at
/// once: the writer runs each unit in its own savepoint, so a unit that fails is undone alone
/// and answered alone, and the job's caller hears once, with every unit's result, after the
/// last unit is final.
///
/// A job can also be answered before its thread finishes it, once, by its queue's deadline
/// (``claimExpiry()``, ``deliverExpiry(_:)``): its caller hears the error, and what its thread
/// finishes later is not told to anyone.
final class DatabaseJob<Connection>: @unchecked Sendable {
  /// How many units the job holds (1 for ``make(_:continuation:)`` and
  /// ``make(_:completion:)``).
  let units: Int
  // The three closures hold what the caller handed over (a batch of votes and what their
  // answers need) and are let go once the job is settled: the queue's watchdog keeps settled
  // jobs listed for a while, and with the closures every one of them kept its batch alive
  // (about 20 KB a round of votes, thousands of rounds: hundreds of MB of churn under load).
  // Under `lock`.
  private var body: ((Connection, Int) -> Bool)?
  private var completion: ((Int, VoteStoreError?) -> Void)?
  /// Answers the caller with an error for every unit, without the results (which the thread
  /// may be writing).
  private var expiry: ((VoteStoreError) -> Void)?
  private let lock = NSLock()
  private var remaining: Int
  private var expired = false
  /// When the job was queued (`DispatchTime` nanoseconds) and whether a thread took it:
  /// the queue's, read and written under its lock.
  var enqueuedAt: UInt64 = 0
  var taken = false

  private init(
    units: Int,
    body: @escaping (Connection, Int) -> Bool,
    completion: @escaping (Int, VoteStoreError?) -> Void,
    expiry: @escaping (VoteStoreError) -> Void
  ) {
    self.units = units
    self.body = body
    self.completion = completion
    self.expiry = expiry
    remaining = units
  }

  /// Runs unit `unit`; true when it succeeded, false when it recorded an error.
  func run(_ connection: Connection, unit: Int = 0) -> Bool {
    lock.lock()
    let body = self.body
    lock.unlock()
    return body?(connection, unit) ?? false
  }

  /// Makes unit `unit`'s result final: its own result, or `error` if it succeeded but could
  /// not be made durable (a failed commit) or never ran. Each unit is finished exactly once;
  /// after the job expired, nobody is told.
  func finish(unit: Int = 0, _ error: VoteStoreError? = nil) {
    lock.lock()
    remaining -= 1
    if !expired { completion?(unit, error) }
    let settled = remaining <= 0
    // What the closures held is freed after the lock.
    let released = settled ? (body, completion, expiry) : (nil, nil, nil)
    if settled {
      body = nil
      completion = nil
      expiry = nil
    }
    lock.unlock()
    withExtendedLifetime(released) {}
  }

  /// Whether nothing more will happen to the job: every unit finished, or it expired before
  /// a thread took it (the queue's lock held, for ``taken``).
  var isSettled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return remaining <= 0 || (expired && !taken)
  }

  /// Whether the job was answered by its deadline.
  var isExpired: Bool {
    lock.lock()
    defer { lock.unlock() }
    return expired
  }

  /// Marks the job answered by its deadline, unless its thread finished it: then returns how
  /// to answer its caller, which the caller of this must do (once, outside its locks).
  ///
  /// The job lets go of its completion here; its work stays until its thread finishes it.
  func claimExpiry() -> ((VoteStoreError) -> Void)? {
    lock.lock()
    guard !expired, remaining > 0 else {
      lock.unlock()
      return nil
    }
    expired = true
    let answer = expiry
    let released = completion
    expiry = nil
    completion = nil
    lock.unlock()
    withExtendedLifetime(released) {}
    return answer
  }

  /// Finishes every unit with `error` (the job never ran: the queue was closed).
  func finishAll(_ error: VoteStoreError) {
    for unit in 0..<units { finish(unit: unit, error) }
  }

  /// A job that runs `work` and resumes `continuation` with its result when finished.
  static func make<T>(
    _ work: @escaping (Connection) throws(VoteStoreError) -> T,
    continuation: CheckedContinuation<Result<T, VoteStoreError>, Never>
  ) -> DatabaseJob<Connection> {
    make(work) { continuation.resume(returning: $0) }
  }

  /// A job that runs `work` and calls `completion` (on the database thread) with its result
  /// when finished.
  static func make<T>(
    _ work: @escaping (Connection) throws(VoteStoreError) -> T,
    completion: @escaping (sending Result<T, VoteStoreError>) -> Void
  ) -> DatabaseJob<Connection> {
    let box = ResultBox<T>()
    return DatabaseJob(
      units: 1,
      body: { connection, _ in
        do throws(VoteStoreError) {
          box.result = .success(try work(connection))
          return true
        } catch {
          box.result = .failure(error)
          return false
        }
      },
      completion: { _, error in completion(box.final(error)) },
      expiry: { error in completion(.failure(error)) })
  }

  /// A job of `count` units (at least 1): unit `i` runs `work(connection, i)`, and
  /// `completion` (on the database thread) gets every unit's result, in unit order, once the
  /// last one is final.
  static func makeBatch<T>(
    count: Int,
    _ work: @escaping (Connection, Int) throws(VoteStoreError) -> T,
    completion: @escaping (sending [Result<T, VoteStoreError>]) -> Void
  ) -> DatabaseJob<Connection> {
    let box = BatchBox<T>(count: count)
    return DatabaseJob(
      units: box.results.count,
      body: { connection, unit in
        do throws(VoteStoreError) {
          box.results[unit] = .success(try work(connection, unit))
          return true
        } catch {
          box.results[unit] = .failure(error)
          return false
        }
      },
      completion: { unit, error in
        box.results[unit] = ResultBox.final(box.results[unit], error)
        box.remaining -= 1
        if box.remaining == 0 {
          completion(box.results.map { $0 ?? .failure(.closed) })
        }
      },
      expiry: { [count = box.results.count] error in
        completion(Array(repeating: .failure(error), count: count))
      })
  }
}

/// Holds a job's result between running it and finishing it (same thread, then resume).
private final class ResultBox<T>: @unchecked Sendable {
  var result: Result<T, VoteStoreError>?

  func final(_ error: VoteStoreError?) -> Result<T, VoteStoreError> {
    Self.final(result, error)
  }

  /// A unit's own failure wins; then a failure of the whole (`error`); then its success.
  static func final(
    _ result: Result<T, VoteStoreError>?, _ error: VoteStoreError?
  ) -> Result<T, VoteStoreError> {
    switch (result, error) {
    case (.failure(let own)?, _): .failure(own)
    case (_, let error?): .failure(error)
    case (let result?, nil): result
    case (nil, nil): .failure(.closed)
    }
  }
}

/// The results of a batch job's units, and how many are not final yet.
private final class BatchBox<T>: @unchecked Sendable {
  var results: [Result<T, VoteStoreError>?]
  var remaining: Int

  init(count: Int) {
    results = Array(repeating: nil, count: max(1, count))
    remaining = results.count
  }
}
