import CSQLite
import Foundation

/// Moves the WAL back into the database file on its own thread and connection, so that the
/// writer never pays for a checkpoint (and its fsync of the database file) inside a commit.
///
/// The writer connection has `wal_autocheckpoint` off and a WAL hook that calls
/// ``walGrew(to:)`` after each commit; past `threshold` pages a `PASSIVE` checkpoint runs
/// here, which never blocks the writer or readers.
final class SQLiteCheckpointer: @unchecked Sendable {
  private let condition = NSCondition()
  private var requested = false
  private var closed = false
  private let threshold: Int32
  private var thread: DatabaseThread?

  /// Starts the thread; it owns `connection` and closes it when the checkpointer closes.
  init(connection: SQLiteConnection, thresholdPages: Int32 = 1000) {
    threshold = thresholdPages
    thread = DatabaseThread(name: "VoteStore.checkpointer") { [self] in
      while waitForRequest() {
        // PASSIVE: copy what readers no longer need; errors (busy) are retried next time.
        try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
      }
      connection.close()
    }
  }

  /// Installs the WAL hook on the writer connection and turns its autocheckpoint off.
  func attach(to writer: SQLiteConnection) throws(VoteStoreError) {
    try writer.execute("PRAGMA wal_autocheckpoint = 0")
    sqlite3_wal_hook(
      writer.handle,
      { context, _, _, pages in
        if let context {
          Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
            .walGrew(to: pages)
        }
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Called on the writer thread after each commit with the WAL's size in pages.
  func walGrew(to pages: Int32) {
    guard pages >= threshold else { return }
    condition.lock()
    requested = true
    condition.signal()
    condition.unlock()
  }

  private func waitForRequest() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !requested && !closed { condition.wait() }
    guard requested else { return false }
    requested = false
    return true
  }

  /// Stops the thread after any checkpoint in progress.
  func close() async {
    closeEventually()
    await thread?.finished()
  }

  /// Like ``close()`` without waiting.
  func closeEventually() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
