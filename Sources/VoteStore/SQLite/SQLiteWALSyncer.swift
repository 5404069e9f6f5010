import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes the writer's commits durable on a thread of its own, so the writer runs the next
/// group while the last one's fsync is under way.
///
/// The writer connection commits with `synchronous = NORMAL`: a `COMMIT` appends its frames
/// to the WAL and returns without syncing it. The writer then hands the group's results here
/// instead of resuming its callers, and this thread answers them only after an `fdatasync` of
/// the WAL file that *began after* their commit returned. That sync puts on disk every frame
/// written before it began, so a caller is still never told "done" before its change is
/// durable: the same promise as `synchronous = FULL`, where SQLite syncs inside the commit.
/// (Checkpoints sync the WAL before they copy it, at any `synchronous` level.)
///
/// One sync answers every group handed over before it began, so the groups committed during a
/// sync share the next one; results are passed on in the order they were handed over.
///
/// A failed sync poisons the store for good: the kernel may have dropped the pages it could
/// not write, so no later sync can vouch for the frames before them. Every result waiting
/// fails with the sync's error (``VoteStoreError/Kind/notDurable``: committed, maybe not on
/// disk), and every later write is refused before it runs (``refusal``); the store must be
/// reopened (`roadmapctl serve` restarted) to write again.
final class SQLiteWALSyncer: @unchecked Sendable {
  /// One unit's result, waiting for the sync that makes it final.
  struct Outcome {
    let job: DatabaseJob<SQLiteConnection>
    let unit: Int
    /// The unit's failure, or the failure of the whole (a failed commit); nil if committed.
    let error: VoteStoreError?
  }

  /// Syncs the WAL: nil when its content is on disk, or why it is not.
  typealias Sync = @Sendable () -> VoteStoreError?

  private let condition = NSCondition()
  private var waiting: [Outcome] = []
  /// Whether anything in ``waiting`` was committed (and so needs the sync to be final).
  private var waitingNeedsSync = false
  private var poisoned: VoteStoreError?
  private var closed = false
  private var running = true

  /// Starts the thread; `sync` makes the WAL durable (``WALFile/sync()`` in use).
  init(sync: @escaping Sync) {
    _ = DatabaseThread(name: "VoteStore.walsync") { [self] in
      run(sync)
    }
  }

  /// Syncs the WAL file at `walPath` (the database's path with `-wal`).
  convenience init(walPath: String) {
    let file = WALFile(path: walPath)
    self.init(sync: { file.sync() })
  }

  /// Why a write is refused before it runs, once a sync failed; nil while syncs succeed.
  var refusal: VoteStoreError? {
    condition.lock()
    defer { condition.unlock() }
    return poisoned.map {
      VoteStoreError(
        .io,
        "the store takes no more writes until it is reopened, after a failed sync: "
          + $0.message)
    }
  }

  /// Queues results to pass on after the next sync; `committed` when they belong to a commit
  /// (results of groups that never committed are passed on without a sync of their own).
  func deliver(_ outcomes: [Outcome], committed: Bool) {
    guard !outcomes.isEmpty else { return }
    condition.lock()
    waiting.append(contentsOf: outcomes)
    waitingNeedsSync = waitingNeedsSync || committed
    condition.signal()
    condition.unlock()
  }

  /// Passes on what is queued (after its sync), then stops the thread; returns once stopped.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    while running { condition.wait() }
    condition.unlock()
  }

  private func run(_ sync: Sync) {
    var batch: [Outcome] = []
    while true {
      condition.lock()
      while waiting.isEmpty && !closed { condition.wait() }
      if waiting.isEmpty {
        running = false
        condition.broadcast()
        condition.unlock()
        return
      }
      swap(&batch, &waiting)
      let needsSync = waitingNeedsSync
      waitingNeedsSync = false
      var failure = poisoned
      condition.unlock()

      // Everything in `batch` was committed before this sync begins.
      if needsSync && failure == nil, let error = sync() {
        failure = error
        condition.lock()
        if poisoned == nil { poisoned = error }
        condition.unlock()
      }
      for outcome in batch {
        outcome.job.finish(unit: outcome.unit, outcome.error ?? failure)
      }
      batch.removeAll(keepingCapacity: true)
    }
  }
}

/// The WAL file, opened (read-only) for syncing; used on the syncer thread only.
///
/// `fdatasync` on any descriptor of a file flushes the file's data, whoever wrote it. The file
/// is opened at the first sync (SQLite creates it), and again if it was unlinked meanwhile;
/// each time it is opened, its directory is synced too, so that the file's name is durable.
final class WALFile: @unchecked Sendable {
  let path: String
  private var descriptor: Int32 = -1

  init(path: String) { self.path = path }

  deinit {
    if descriptor >= 0 { _ = close(descriptor) }
  }

  /// Syncs the file; nil on success.
  func sync() -> VoteStoreError? {
    if descriptor < 0 || isUnlinked() {
      if let error = reopen() { return error }
    }
    while Self.syncData(descriptor) != 0 {
      let code = errno
      if code == EINTR { continue }
      return Self.error("cannot sync the write-ahead log \(path)", code)
    }
    return nil
  }

  private func isUnlinked() -> Bool {
    var info = stat()
    return fstat(descriptor, &info) == 0 && info.st_nlink == 0
  }

  private func reopen() -> VoteStoreError? {
    if descriptor >= 0 {
      _ = close(descriptor)
      descriptor = -1
    }
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else {
      return Self.error("cannot open the write-ahead log \(path) to sync it", errno)
    }
    descriptor = file
    let directory = (path as NSString).deletingLastPathComponent
    let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
    guard folder >= 0 else {
      return Self.error("cannot open the directory \(directory) to sync it", errno)
    }
    defer { _ = close(folder) }
    while fsync(folder) != 0 {
      let code = errno
      if code == EINTR { continue }
      // Some file systems cannot sync a directory; their names are durable without it.
      if code == EINVAL || code == ENOTSUP { break }
      return Self.error("cannot sync the directory \(directory)", code)
    }
    return nil
  }

  /// `fdatasync` where there is one (Linux), else `fsync` (what SQLite uses there too).
  private static func syncData(_ descriptor: Int32) -> Int32 {
    #if os(Linux)
      fdatasync(descriptor)
    #else
      fsync(descriptor)
    #endif
  }

  private static func error(_ what: String, _ code: Int32) -> VoteStoreError {
    VoteStoreError(
      .notDurable,
      "\(what): \(String(cString: strerror(code))); the writes since the last sync may not "
        + "be durable")
  }
}
