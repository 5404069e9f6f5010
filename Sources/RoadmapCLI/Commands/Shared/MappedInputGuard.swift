#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns the SIGBUS of a mapped input cut short into a clear error.
///
/// `validate` maps a large file instead of reading it (`InputLoader.mapFile`). If another
/// program truncates that file while it is read, touching a page past the new end raises
/// SIGBUS, which would end the process with "Bus error" and a core dump. Once a file is mapped,
/// a SIGBUS instead prints `Error: 'FILE' was cut short while it was being read …` on standard
/// error and exits with status 1, the status of an input that cannot be read. Nothing is
/// written before a file is read whole, so nothing is left half-written.
enum MappedInputGuard {
  /// The message the handler writes: made before the handler can run, so that the handler
  /// only calls `write` and `_exit` (both async-signal-safe).
  nonisolated(unsafe) private static var message: UnsafeMutablePointer<UInt8>?
  nonisolated(unsafe) private static var messageLength = 0
  nonisolated(unsafe) private static var installed = false

  /// Installs the handler (once) and names `displayPath` as the input being read.
  static func watch(_ displayPath: String) {
    let text = Array(
      ("Error: '\(displayPath)' was cut short while it was being read (another program "
        + "truncated or rewrote it in place). Run again once nothing rewrites it.\n").utf8)
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
    buffer.initialize(from: text, count: text.count)
    // The old message is left allocated: the handler may be reading it right now.
    messageLength = 0
    message = buffer
    messageLength = text.count
    guard !installed else { return }
    installed = true
    _ = signal(SIGBUS) { _ in
      if let message = MappedInputGuard.message, MappedInputGuard.messageLength > 0 {
        _ = write(2, message, MappedInputGuard.messageLength)
      }
      _exit(1)
    }
  }
}
