import Foundation

/// Whether the PostgreSQL server is answering, shared by a store's connections: after a
/// timeout every connection fails fast until the retry time, then one call probes.
final class PostgresAvailability: @unchecked Sendable {
  private let lock = NSLock()
  private var downUntil: Int64?
  private var probing = false
  private var lastFailure = ""
  private let retryMilliseconds: Int64

  init(retryMilliseconds: Int) {
    self.retryMilliseconds = Int64(max(0, retryMilliseconds))
  }

  /// Nil when the caller may talk to the server (it is up, or the caller is the one probe);
  /// otherwise the error to fail fast with.
  func admit(now: Int64 = currentMilliseconds()) -> VoteStoreError? {
    lock.withLock {
      guard let downUntil else { return nil }
      if now >= downUntil && !probing {
        probing = true
        return nil
      }
      let wait = max(0, downUntil &- now)
      // Nothing of the call was sent (a connection inside a transaction is never refused
      // here), so its outcome is known: nothing was changed.
      return VoteStoreError(
        .io,
        "PostgreSQL is not answering (\(lastFailure)); failing fast, nothing was sent, next "
          + "try in \(wait) ms")
    }
  }

  /// The server answered.
  func up() {
    lock.withLock {
      downUntil = nil
      probing = false
    }
  }

  /// The server did not answer in time.
  func down(_ why: String, now: Int64 = currentMilliseconds()) {
    lock.withLock {
      downUntil = now &+ retryMilliseconds
      probing = false
      lastFailure = why
    }
  }

  /// A probe ended without learning anything about the server (e.g. an SQL error).
  func probeEnded() {
    lock.withLock { probing = false }
  }
}
