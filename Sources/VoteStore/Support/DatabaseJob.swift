/// One unit of database work, run on a database thread and finished (its caller resumed)
/// once its outcome is final: for a write, after the transaction that holds it committed.
final class DatabaseJob<Connection>: @unchecked Sendable {
  private let body: (Connection) -> Bool
  private let completion: (VoteStoreError?) -> Void

  private init(
    body: @escaping (Connection) -> Bool,
    completion: @escaping (VoteStoreError?) -> Void
  ) {
    self.body = body
    self.completion = completion
  }

  /// Runs the work; true when it succeeded, false when it recorded an error.
  func run(_ connection: Connection) -> Bool { body(connection) }

  /// Resumes the caller: with its own result, or with `error` if the work succeeded but
  /// could not be made durable (a failed commit) or never ran.
  func finish(_ error: VoteStoreError? = nil) { completion(error) }

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
      body: { connection in
        do throws(VoteStoreError) {
          box.result = .success(try work(connection))
          return true
        } catch {
          box.result = .failure(error)
          return false
        }
      },
      completion: { error in
        switch (box.result, error) {
        case (.failure(let own)?, _): completion(.failure(own))
        case (_, let error?): completion(.failure(error))
        case (let result?, nil): completion(result)
        case (nil, nil): completion(.failure(.closed))
        }
      })
  }
}

/// Holds a job's result between running it and finishing it (same thread, then resume).
private final class ResultBox<T>: @unchecked Sendable {
  var result: Result<T, VoteStoreError>?
}
