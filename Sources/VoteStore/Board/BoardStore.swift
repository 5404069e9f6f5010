import Foundation

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

  /// Whether every write to these boards goes through this object, so that a view kept in
  /// memory and made current by its write notices is never stale: true for SQLite beside a
  /// vote store with its memory cache (the only writer of its file, as `serve` opens it),
  /// false for PostgreSQL (other instances write too).
  var seesEveryWrite: Bool { get }

  /// Adds `observer`, awaited after every write that touched a project's published board or
  /// set counters (see ``BoardWriteNotice``), after the commit and before ``write(_:)``
  /// returns; also after a write whose outcome is unknown. A write whose body threw its own
  /// error (rolled back, nothing kept) is not told.
  func addWriteObserver(_ observer: @escaping @Sendable (BoardWriteNotice) async -> Void)
}

extension BoardStore {
  /// False: a store that does not say otherwise may be written by others.
  public var seesEveryWrite: Bool { false }

  /// Does nothing: a store that does not say otherwise tells no observer.
  public func addWriteObserver(_ observer: @escaping @Sendable (BoardWriteNotice) async -> Void) {
  }
}

/// The write observers of one store.
final class BoardWriteObservers: @unchecked Sendable {
  typealias Observer = @Sendable (BoardWriteNotice) async -> Void
  private let lock = NSLock()
  private var observers: [Observer] = []

  /// Adds one.
  func add(_ observer: @escaping Observer) {
    lock.withLock { observers.append(observer) }
  }

  /// Tells every observer what `log` noted for a write that ended with `result`: committed,
  /// or of unknown outcome when the store failed; nothing when the body threw its own error
  /// (then it was rolled back).
  func tell<T>(_ log: BoardWriteLog, after result: Result<T, VoteStoreError>, _ box: BodyErrorBox)
    async
  {
    let committed: Bool
    switch result {
    case .success: committed = true
    case .failure:
      guard box.error == nil else { return }
      committed = false
    }
    guard let notice = log.notice(committed: committed) else { return }
    for observer in lock.withLock({ observers }) { await observer(notice) }
  }
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
