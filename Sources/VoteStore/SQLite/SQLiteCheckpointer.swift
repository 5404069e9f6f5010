import CSQLite
import Foundation

/// Moves the WAL back into the database file on its own thread and connection, so that the
/// writer never pays for a checkpoint (and its fsync of the database file) inside a commit,
/// and keeps the WAL small relative to the database.
///
/// The writer connection has `wal_autocheckpoint` off and a WAL hook that calls
/// ``walGrew(to:)`` after each commit (each group commit). Policy:
/// - after a commit that leaves the WAL above ``threshold(databasePages:)`` — a quarter of the
///   database, at least ``minimumPages`` — a `PASSIVE` checkpoint runs here (it blocks neither
///   the writer nor readers; the writer then restarts the WAL from its start). It is asked
///   for once per WAL: a writer that keeps appending keeps the WAL from restarting behind it;
/// - once no commit came for ``idleMilliseconds``, a `TRUNCATE` checkpoint empties the WAL
///   file (so an idle store holds no WAL at all);
/// - after a write failed with a full disk, a `TRUNCATE` checkpoint frees the WAL's space at once;
/// - when this thread lags or the WAL did not restart (WAL past twice the threshold), the writer
///   checkpoints after its commit.
final class SQLiteCheckpointer: @unchecked Sendable {
  /// The smallest WAL (in pages) worth a checkpoint: 64 pages (256 KiB at 4 KiB pages).
  static let minimumPages: Int32 = 64
  /// How long without a commit before the WAL is truncated: 1 s.
  static let idleMilliseconds: Int64 = 1000

  /// The WAL size (pages) past which a passive checkpoint runs.
  static func threshold(databasePages: Int64) -> Int32 {
    Int32(clamping: max(Int64(minimumPages), databasePages / 4))
  }

  private let condition = NSCondition()
  private var passiveRequested = false
  private var truncateRequested = false
  private var walPages: Int32 = 0
  /// The WAL's size when the last passive checkpoint was asked for; 0 once the WAL restarted.
  private var passiveAskedAt: Int32 = 0
  private var lastCommit: Int64 = 0
  private var databasePages: Int64 = 0
  private var closed = false
  private var thread: DatabaseThread?
  private var counts = CheckpointCounts()

  /// Starts the thread; it owns `connection` and closes it when the checkpointer closes.
  init(connection: SQLiteConnection) {
    databasePages = (try? connection.integer("PRAGMA page_count")) ?? 0
    thread = DatabaseThread(name: "votes checkpt") { [self] in
      while let mode = nextCheckpoint() {
        // Errors (busy) are retried at the next request.
        let ok = (try? connection.execute("PRAGMA wal_checkpoint(\(mode))")) != nil
        let pages = (try? connection.integer("PRAGMA page_count")) ?? nil
        finished(mode, ok: ok, databasePages: pages)
      }
      connection.close()
    }
  }

  /// Installs the WAL hook on the writer connection and turns its autocheckpoint off.
  func attach(to writer: SQLiteConnection) throws(VoteStoreError) {
    try writer.execute("PRAGMA wal_autocheckpoint = 0")
    // When the WAL restarts after a checkpoint, a file grown past 1 MiB is cut back to it.
    _ = try writer.integer("PRAGMA journal_size_limit = 1048576")
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
  ///
  /// The thread is woken only when there is something new for it to do: a checkpoint to
  /// run, or a WAL to watch that it was not watching (it then times its own idle wait from
  /// ``lastCommit``, which later commits only move on). So a busy writer does not wake it
  /// at every commit.
  func walGrew(to pages: Int32) {
    condition.lock()
    let wasWatching = walPages > 0
    walPages = pages
    lastCommit = currentMilliseconds()
    var wake = !wasWatching
    if pages < passiveAskedAt { passiveAskedAt = 0 }  // the WAL restarted from its start
    // One passive checkpoint per WAL: it runs beside a writer that keeps appending, so the WAL
    // does not restart behind it, and asking again at every commit past the threshold ran a
    // checkpoint (two fsyncs, competing with the commits' own) every few commits. Past twice
    // the threshold the writer checkpoints between groups itself and the WAL restarts.
    if pages >= Self.threshold(databasePages: databasePages) && passiveAskedAt == 0
      && !passiveRequested
    {
      passiveRequested = true
      passiveAskedAt = pages
      wake = true
    }
    if wake { condition.signal() }
    condition.unlock()
  }

  /// Run by the writer after each group: when the checkpointer thread lags (the WAL is past
  /// twice the threshold, e.g. on a starved machine), the writer checkpoints itself, so the
  /// WAL cannot outgrow the disk whatever the thread scheduling.
  func writerCommitted(_ writer: SQLiteConnection) {
    let lagging = condition.withLock {
      Int64(walPages) >= 2 * Int64(Self.threshold(databasePages: databasePages))
    }
    guard lagging else { return }
    let ok = (try? writer.execute("PRAGMA wal_checkpoint(PASSIVE)")) != nil
    let pages = (try? writer.integer("PRAGMA page_count")) ?? nil
    condition.lock()
    if let pages { databasePages = pages }
    if ok { counts.byWriter += 1 }
    condition.unlock()
  }

  /// Asks for a `TRUNCATE` checkpoint now (after a write found the disk full).
  func requestTruncate() {
    condition.lock()
    truncateRequested = true
    condition.signal()
    condition.unlock()
  }

  /// How many checkpoints of each kind ran (for tests and metrics).
  var checkpoints: CheckpointCounts { condition.withLock { counts } }

  /// Waits for the next checkpoint to run, or nil once closed.
  private func nextCheckpoint() -> String? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if closed { return nil }
      if truncateRequested {
        truncateRequested = false
        passiveRequested = false
        return "TRUNCATE"
      }
      if passiveRequested {
        passiveRequested = false
        return "PASSIVE"
      }
      if walPages > 0 {
        let idleFor = currentMilliseconds() &- lastCommit
        if idleFor >= Self.idleMilliseconds {
          passiveRequested = false
          return "TRUNCATE"
        }
        _ = condition.wait(
          until: Date(timeIntervalSinceNow: Double(Self.idleMilliseconds &- idleFor) / 1000))
      } else {
        condition.wait()
      }
    }
  }

  private func finished(_ mode: String, ok: Bool, databasePages pages: Int64?) {
    condition.lock()
    if let pages { databasePages = pages }
    if mode == "TRUNCATE" {
      if ok {
        walPages = 0
        passiveAskedAt = 0
      }
      counts.truncate += 1
    } else {
      counts.passive += 1
    }
    if !ok {
      // Busy (a reader holds the WAL): try again after the idle time, not in a tight loop.
      lastCommit = currentMilliseconds()
    }
    condition.unlock()
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

/// How many checkpoints of each kind a store ran.
struct CheckpointCounts: Sendable, Equatable {
  var passive = 0
  var truncate = 0
  /// Passive checkpoints the writer ran itself because the checkpointer thread lagged.
  var byWriter = 0
}
