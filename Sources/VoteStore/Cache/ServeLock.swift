import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lock that keeps other processes from writing a database whose counts a serving
/// process holds in memory (``CounterCache``): a write it did not make would never reach
/// its memory.
///
/// It is an advisory `flock(2)` on the data directory that holds the database: not on a file
/// in it, which can be deleted or replaced while a server runs (a voter key put back with
/// `install`, say), and then the next process would lock a new file and start beside the
/// first, each writing, one of them reading stale counts (where the file system cannot lock a
/// directory, a file `votes.sqlite3-lock` made beside the database for it). A store
/// with a memory cache holds it exclusively for as long as it is open, so a second such store
/// (a second `roadmapctl serve` on the same data directory) is refused at start. Any other
/// store takes it shared before its first write and keeps it, so a write from
/// `roadmapctl votes import --data-dir …` while `serve` runs there is refused with what to do
/// instead, and a `serve` started during the import waits for nothing: it is refused too.
/// The kernel releases the lock when the process ends, however it ends.
final class ServeLock: @unchecked Sendable {
  private let mutex = NSLock()
  private var descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { release() }

  /// Releases the lock (closing its file); later calls do nothing.
  func release() {
    mutex.lock()
    defer { mutex.unlock() }
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
  }

  /// The directory locked for the database at `databasePath`: the one that holds it.
  static func path(forDatabase databasePath: String) -> String {
    let directory = (databasePath as NSString).deletingLastPathComponent
    return directory.isEmpty ? "." : directory
  }

  /// Takes the lock exclusively for a store that keeps counts in memory.
  static func exclusive(forDatabase databasePath: String) throws(VoteStoreError) -> ServeLock {
    try take(databasePath, LOCK_EX) {
      "\(databasePath) is already open in another process that writes it (another "
        + "'roadmapctl serve' on this data directory, or a 'roadmapctl votes import'); a "
        + "served store must be its only writer. Stop the other process, or give this one a "
        + "--data-dir of its own."
    }
  }

  /// Takes the lock shared before a write from a store without a memory cache.
  static func shared(forDatabase databasePath: String) throws(VoteStoreError) -> ServeLock {
    try take(databasePath, LOCK_SH) {
      "\(databasePath) is being served by a running 'roadmapctl serve', which keeps its counts "
        + "in memory and must be the database's only writer; this write was not made. Stop the "
        + "server, write, and start it again (docs/serving.md, \"Backups and moves\")."
    }
  }

  private static func take(
    _ databasePath: String, _ operation: Int32, busy: () -> String
  ) throws(VoteStoreError) -> ServeLock {
    let directory = Self.path(forDatabase: databasePath)
    if let lock = try lock(directory, O_DIRECTORY, operation, busy: busy) { return lock }
    // A file system that locks no directory: a lock file beside the database, made for it.
    let lockFile = databasePath + "-lock"
    guard let lock = try lock(lockFile, O_CREAT, operation, busy: busy) else {
      throw VoteStoreError(.io, "cannot lock \(lockFile): the file system locks no file")
    }
    return lock
  }

  /// `path` locked with `operation`; nil when its file system cannot lock it.
  private static func lock(
    _ path: String, _ flags: Int32, _ operation: Int32, busy: () -> String
  ) throws(VoteStoreError) -> ServeLock? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | flags, 0o600)
    guard descriptor >= 0 else {
      throw VoteStoreError(
        .io, "cannot open \(path) to lock the store: \(String(cString: strerror(errno)))")
    }
    // A lock released a moment ago can still be held for a few milliseconds by a child
    // process another thread is starting (its copy of the descriptor lives until its exec),
    // so a refusal is retried briefly before it is final.
    var retries = 30
    while flock(descriptor, operation | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      if code == EWOULDBLOCK && retries > 0 {
        retries -= 1
        usleep(10_000)
        continue
      }
      close(descriptor)
      if code == EWOULDBLOCK { throw VoteStoreError(.busy, busy()) }
      if code == EOPNOTSUPP || code == EINVAL { return nil }
      throw VoteStoreError(
        .io, "cannot lock \(path): \(String(cString: strerror(code)))")
    }
    return ServeLock(descriptor: descriptor)
  }
}

/// A store's shared ``ServeLock``, taken once, at its first write.
final class WriteLockOnce: @unchecked Sendable {
  private let databasePath: String
  private let mutex = NSLock()
  private var lock: ServeLock?
  private var released = false

  /// Creates the holder for the database at `databasePath`; nothing is locked yet.
  init(databasePath: String) {
    self.databasePath = databasePath
  }

  /// Takes the shared lock if this store does not hold it yet; throws while a server holds it.
  func ensure() throws(VoteStoreError) {
    mutex.lock()
    defer { mutex.unlock() }
    guard lock == nil, !released else { return }
    lock = try ServeLock.shared(forDatabase: databasePath)
  }

  /// Releases the lock when the store closes.
  func release() {
    mutex.lock()
    defer { mutex.unlock() }
    lock?.release()
    lock = nil
    released = true
  }
}
