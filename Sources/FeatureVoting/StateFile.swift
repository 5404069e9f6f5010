import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small state files written so that a crash at any moment leaves either the old or the new
/// content, never a mix: write a temporary file next to the target, `fsync` it, `rename` it
/// over the target, then `fsync` the directory.
enum StateFile {
  /// The file's content, or nil when it does not exist (nor can, a file standing where its
  /// directory should: writing it then says why).
  ///
  /// Whether it exists is what `open` said, in the same call that opened it: asking again
  /// after a failed read would take a file another process created in between for one that
  /// cannot be read.
  static func read(_ url: URL) throws(VotingError) -> Data? {
    var fd: Int32
    repeat { fd = open(url.path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
    guard fd >= 0 else {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw .storage(file: url.path, "cannot be read: \(errorText())")
    }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    do {
      return try handle.readToEnd() ?? Data()
    } catch {
      throw .storage(file: url.path, "cannot be read: \(error.localizedDescription)")
    }
  }

  /// Replaces the file's content atomically and durably, creating its directory if needed.
  static func write(_ data: Data, to url: URL) throws(VotingError) {
    let temporary = try writeTemporary(data, next: url)
    guard rename(temporary.path, url.path) == 0 else {
      let cause = errorText()
      unlink(temporary.path)
      throw .storage(file: url.path, "cannot be replaced: \(cause)")
    }
    syncDirectory(of: url)
  }

  /// Creates the file with `data` if it does not exist yet; returns false (and changes
  /// nothing) when it exists. Atomic: a reader sees no file or the whole content.
  static func create(_ data: Data, at url: URL) throws(VotingError) -> Bool {
    let temporary = try writeTemporary(data, next: url)
    defer { unlink(temporary.path) }
    if link(temporary.path, url.path) == 0 {
      syncDirectory(of: url)
      return true
    }
    if errno == EEXIST { return false }
    throw .storage(file: url.path, "cannot be created: \(errorText())")
  }

  /// Removes the file; a missing file is fine.
  static func remove(_ url: URL) throws(VotingError) {
    if unlink(url.path) != 0 && errno != ENOENT {
      throw .storage(file: url.path, "cannot be removed: \(errorText())")
    }
    syncDirectory(of: url)
  }

  private static func writeTemporary(_ data: Data, next url: URL) throws(VotingError) -> URL {
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw .storage(
        file: url.path, "its directory cannot be created: \(error.localizedDescription)")
    }
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else {
      throw .storage(file: url.path, "cannot write a temporary file: \(errorText())")
    }
    var failure: String?
    data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Glue.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = "write: \(errorText())"
          return
        }
        offset += written
      }
    }
    if failure == nil, fsync(fd) != 0 { failure = "fsync: \(errorText())" }
    close(fd)
    if let failure {
      unlink(temporary.path)
      throw .storage(file: url.path, "cannot be written: \(failure)")
    }
    return temporary
  }

  private static func syncDirectory(of url: URL) {
    let fd = open(url.deletingLastPathComponent().path, O_RDONLY)
    if fd >= 0 {
      _ = fsync(fd)
      close(fd)
    }
  }

  /// The current `errno` in words.
  static func errorText() -> String {
    String(cString: strerror(errno))
  }
}

/// POSIX calls whose names clash with methods in scope.
enum Glue {
  static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, buffer, count)
    #elseif canImport(Musl)
      Musl.write(fd, buffer, count)
    #else
      Darwin.write(fd, buffer, count)
    #endif
  }
}
