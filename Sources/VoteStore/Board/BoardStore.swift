/// Where boards live: beside the counters, on the same database.
///
/// ``read(_:)`` runs its body on one consistent snapshot; ``write(_:)`` runs it in one
/// atomic, durable transaction (all of it or none, committed before the call returns). Bodies
/// run on a database thread, never on Swift's cooperative pool; they must not block on
/// anything else. A body may throw its own errors: a write is then rolled back and the
/// caller gets that error back unchanged; store failures are ``VoteStoreError``s.
public protocol BoardStore: Sendable {
  /// Runs `body` on a read snapshot.
  func read<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T

  /// Runs `body` in one transaction; when it throws, nothing of it is kept.
  func write<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T

  /// Finishes queued work and closes the store's connections.
  func close() async
}

/// Carries a body's own error out of a database job, which may only throw store errors.
final class BodyErrorBox: @unchecked Sendable {
  private(set) var error: (any Error)?

  /// Runs `body`; its own errors are kept here and become a store error that rolls back.
  func run<T>(_ body: () throws -> T) throws(VoteStoreError) -> T {
    do {
      return try body()
    } catch let error as VoteStoreError {
      throw error
    } catch {
      self.error = error
      throw VoteStoreError(.other, "the board write was abandoned: \(error)")
    }
  }

  /// The value of `result`; when it failed because the body threw, the body's own error.
  func unwrap<T>(_ result: Result<T, VoteStoreError>) throws -> T {
    switch result {
    case .success(let value): return value
    case .failure(let failure):
      if let own = error { throw own }
      throw failure
    }
  }
}

extension ConnectionPool {
  /// Like `run`, with the outcome as a value.
  func runCatching<T>(
    _ work: @escaping (Connection) throws(VoteStoreError) -> T
  ) async -> Result<T, VoteStoreError> {
    do throws(VoteStoreError) {
      return .success(try await run(work))
    } catch {
      return .failure(error)
    }
  }
}

extension SQLiteWriter {
  /// Like `write`, with the outcome as a value.
  func writeCatching<T>(
    _ work: @escaping (SQLiteConnection) throws(VoteStoreError) -> T
  ) async -> Result<T, VoteStoreError> {
    do throws(VoteStoreError) {
      return .success(try await write(work))
    } catch {
      return .failure(error)
    }
  }
}
