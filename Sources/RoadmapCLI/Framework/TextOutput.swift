import Foundation

/// Where a command writes text: standard output, standard error, or a buffer tests read.
///
/// Writes go out at once (no buffering), so a long-running command's lines reach a reader
/// immediately. A command with a lot of output should build it and write it in one call.
public final class TextOutput: @unchecked Sendable {
  private let lock = NSLock()
  private let handle: FileHandle?
  private var captured: [UInt8] = []

  private init(handle: FileHandle?) {
    self.handle = handle
  }

  /// The process's standard output.
  public static let standardOutput = TextOutput(handle: .standardOutput)

  /// The process's standard error.
  public static let standardError = TextOutput(handle: .standardError)

  /// A writer that keeps everything in memory; read it back with ``text``.
  public static func capturing() -> TextOutput {
    TextOutput(handle: nil)
  }

  /// Writes `text` as UTF-8.
  public func write(_ text: String) {
    write(bytes: Array(text.utf8))
  }

  /// Writes `text` followed by a newline.
  public func writeLine(_ text: String = "") {
    write(text + "\n")
  }

  /// Writes raw bytes.
  public func write(bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    if let handle {
      try? handle.write(contentsOf: Data(bytes))
    } else {
      captured.append(contentsOf: bytes)
    }
  }

  /// Everything written so far to a capturing writer, as UTF-8 text (empty for real streams).
  public var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: captured, as: UTF8.self)
  }
}
