import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a command's `-o`/`--out` file: a regular file (or a new one) is replaced
/// atomically, written beside its target and renamed into place once complete and synced; a
/// symbolic link is followed to the file it names; a device, FIFO or socket (`/dev/null`, a
/// pipe to another program) is written into, never replaced by a file. Failures are said in
/// the system's words, naming the path given. A signal that ends the process while it writes
/// (SIGINT, SIGTERM, SIGHUP, SIGPIPE) removes the temporary file first
/// (``PartialFileCleanup``).
enum OutputFile {
  /// Where `path` really writes: the file a symbolic link names, else `path`.
  static func target(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// What `path` is now: nil when nothing is there.
  fileprivate static func mode(_ path: String) -> mode_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// Writes `bytes` to `path` (`shown` names it in messages).
  static func write(_ bytes: [UInt8], to path: String, shown: String) throws(CommandError) {
    let sink = try Sink(path, shown: shown)
    do throws(CommandError) {
      try sink.write(bytes)
      try sink.finish()
    } catch {
      sink.abandon()
      throw error
    }
  }

  /// Streams to `path` what `body` hands to the ``Sink`` it is given, piece by piece, so
  /// memory stays flat however much is written; the file is in place only when `body`
  /// returned and all of it is on disk. An error `body` throws (its own, or a ``Sink``'s
  /// failed write) leaves any file at `path` as it was.
  static func streaming<T>(
    to path: String, shown: String, _ body: (Sink) async throws -> T
  ) async throws -> T {
    let sink = try Sink(path, shown: shown)
    do {
      let result = try await body(sink)
      try sink.finish()
      return result
    } catch {
      sink.abandon()
      throw error
    }
  }

  /// One output being written: the target itself (a device, FIFO or socket) or a temporary
  /// file beside it, renamed onto it by ``finish()``.
  final class Sink: @unchecked Sendable {
    // Written by one caller at a time (the body's pieces arrive in order).
    private let descriptor: Int32
    private let target: String
    private let temporary: String?
    private let shown: String
    private var closed = false
    /// The temporary file's slot in ``PartialFileCleanup`` while it may still be removed.
    private var cleanupSlot: Int?

    fileprivate init(_ path: String, shown: String) throws(CommandError) {
      let target = OutputFile.target(path)
      switch OutputFile.mode(target) {
      case S_IFDIR?:
        throw .failure("cannot write '\(shown)': it is a directory")
      case let kind? where kind != S_IFREG:
        temporary = nil
      default:
        OutputFile.removeAbandoned(beside: target)
        temporary = target + ".partial-\(getpid())"
      }
      // Before the file exists, so that no signal can come between its creation and this.
      cleanupSlot = temporary.flatMap { PartialFileCleanup.register($0) }
      let flags = temporary == nil ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC
      descriptor = open(temporary ?? target, flags | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        let problem = errno
        if let cleanupSlot { PartialFileCleanup.unregister(cleanupSlot) }
        throw OutputFile.failure(shown, problem, creating: temporary != nil)
      }
      // The file that replaces an existing one keeps its permissions (a 0600 file stayed
      // private only until the first write made it 0644); a new one gets 0644 less the umask.
      var existing = stat()
      if temporary != nil, stat(target, &existing) == 0 {
        _ = fchmod(descriptor, existing.st_mode & 0o7777)
      }
      self.target = target
      self.shown = shown
    }

    /// The failure of the last ``write(_:)`` that failed, for a caller whose body wraps
    /// the error it threw in its own.
    private(set) var failure: CommandError?

    /// Writes `bytes` whole; a failure names the output in the system's words.
    func write(_ bytes: [UInt8]) throws(CommandError) {
      let problem = DescriptorWriter.writeAll(descriptor, bytes)
      if problem != 0 {
        let failure = OutputFile.failure(shown, problem, creating: false)
        self.failure = failure
        throw failure
      }
    }

    /// Syncs and closes a file and renames it into place.
    fileprivate func finish() throws(CommandError) {
      var problem: Int32 = 0
      if temporary != nil, fsync(descriptor) != 0 { problem = errno }
      closed = true
      if close(descriptor) != 0, problem == 0, errno != EINTR { problem = errno }
      if problem == 0, let temporary, rename(temporary, target) != 0 { problem = errno }
      if problem != 0 {
        abandon()
        throw OutputFile.failure(shown, problem, creating: false)
      }
      releaseCleanup()
    }

    /// Closes the output and removes the temporary file: the target stays as it was.
    fileprivate func abandon() {
      if !closed {
        closed = true
        close(descriptor)
      }
      if let temporary { unlink(temporary) }
      releaseCleanup()
    }

    /// The temporary file is gone (renamed or removed): a signal has nothing to remove.
    private func releaseCleanup() {
      if let cleanupSlot {
        PartialFileCleanup.unregister(cleanupSlot)
        self.cleanupSlot = nil
      }
    }
  }

  /// Removes the temporary files an earlier write to `target` left when it was killed
  /// (`TARGET.partial-PID` of a process that no longer runs); those of a running one stay.
  fileprivate static func removeAbandoned(beside target: String) {
    let url = URL(fileURLWithPath: target)
    let directory = url.deletingLastPathComponent().path
    let prefix = url.lastPathComponent + ".partial-"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return
    }
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH {
        unlink((directory as NSString).appendingPathComponent(name))
      }
    }
  }

  fileprivate static func failure(_ shown: String, _ code: Int32, creating: Bool) -> CommandError {
    if creating && code == ENOENT {
      let directory = (shown as NSString).deletingLastPathComponent
      return .failure("cannot write '\(shown)': there is no directory '\(directory)'")
    }
    return .failure("cannot write '\(shown)': \(String(cString: strerror(code)))")
  }
}
