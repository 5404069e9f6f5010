import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An advisory, exclusive lock on a lock file (`flock`), shared by every process that uses it.
enum FileLock {
  /// The lock file of `file`: `FILE.lock`, next to it.
  static func lockFile(for file: URL) -> URL {
    file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".lock")
  }

  /// Runs `body` holding the exclusive lock on `url` (created if needed). Blocks until the lock
  /// is free: call it off Swift's cooperative threads.
  static func holding<T>(_ url: URL, _ body: () throws(VotingError) -> T) throws(VotingError) -> T {
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw .storage(
        file: url.path, "its directory cannot be created: \(error.localizedDescription)")
    }
    let fd = open(url.path, O_RDWR | O_CREAT, 0o644)
    guard fd >= 0 else {
      throw .storage(file: url.path, "cannot be opened for locking: \(StateFile.errorText())")
    }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      if errno == EINTR { continue }
      throw .storage(file: url.path, "cannot be locked: \(StateFile.errorText())")
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
