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
/// the system's words, naming the path given.
enum OutputFile {
  /// Where `path` really writes: the file a symbolic link names, else `path`.
  static func target(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// What `path` is now: nil when nothing is there.
  private static func mode(_ path: String) -> mode_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
  }

  /// Writes `bytes` to `path` (`shown` names it in messages).
  static func write(_ bytes: [UInt8], to path: String, shown: String) throws(CommandError) {
    let target = target(path)
    switch mode(target) {
    case S_IFDIR?:
      throw .failure("cannot write '\(shown)': it is a directory")
    case let kind? where kind != S_IFREG:
      try writeAll(bytes, into: target, flags: O_WRONLY, shown: shown)
    default:
      let temporary = target + ".partial-\(getpid())"
      do throws(CommandError) {
        try writeAll(bytes, into: temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, shown: shown)
        guard rename(temporary, target) == 0 else {
          throw failure(shown, errno, creating: false)
        }
      } catch {
        unlink(temporary)
        throw error
      }
    }
  }

  /// Opens `path` with `flags`, writes `bytes` whole, syncs a regular file, closes it.
  private static func writeAll(
    _ bytes: [UInt8], into path: String, flags: Int32, shown: String
  ) throws(CommandError) {
    let descriptor = open(path, flags | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure(shown, errno, creating: flags & O_CREAT != 0) }
    var problem = DescriptorWriter.writeAll(descriptor, bytes)
    if problem == 0, mode(path) == S_IFREG, fsync(descriptor) != 0 { problem = errno }
    if close(descriptor) != 0, problem == 0, errno != EINTR { problem = errno }
    if problem != 0 { throw failure(shown, problem, creating: false) }
  }

  private static func failure(_ shown: String, _ code: Int32, creating: Bool) -> CommandError {
    if creating && code == ENOENT {
      let directory = (shown as NSString).deletingLastPathComponent
      return .failure("cannot write '\(shown)': there is no directory '\(directory)'")
    }
    return .failure("cannot write '\(shown)': \(String(cString: strerror(code)))")
  }
}
