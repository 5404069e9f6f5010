import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes text: standard output, standard error, or a buffer tests read.
///
/// Writes go out at once (no buffering), so a long-running command's lines reach a reader
/// immediately. A command with a lot of output should build it and write it in one call.
///
/// A write that fails (a full disk behind `> backup.json`, a closed pipe) is remembered, and
/// nothing more is written: ``RoadmapCLI`` then reports it and exits 1, instead of a success
/// over a cut-off file.
public final class TextOutput: @unchecked Sendable {
  private let lock = NSLock()
  private let descriptor: Int32?
  private var captured: [UInt8] = []
  private var failed: String?
  private var failureReported = false

  init(descriptor: Int32?) {
    self.descriptor = descriptor
  }

  /// The process's standard output.
  public static let standardOutput = TextOutput(descriptor: 1)

  /// The process's standard error.
  public static let standardError = TextOutput(descriptor: 2)

  /// A writer that keeps everything in memory; read it back with ``text``.
  public static func capturing() -> TextOutput {
    TextOutput(descriptor: nil)
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
    guard let descriptor else {
      captured.append(contentsOf: bytes)
      return
    }
    guard failed == nil else { return }
    let code = DescriptorWriter.writeAll(descriptor, bytes)
    if code != 0 { failed = String(cString: strerror(code)) }
  }

  /// Why a write failed, when one did (the system's words: "No space left on device").
  public var failure: String? {
    lock.lock()
    defer { lock.unlock() }
    return failed
  }

  /// ``failure``, which the caller now reports itself (as an error of the command), so that
  /// ``RoadmapCLI`` does not report it a second time at the end.
  public func claimFailure() -> String? {
    lock.lock()
    defer { lock.unlock() }
    if failed != nil { failureReported = true }
    return failed
  }

  /// ``failure`` when no one reported it yet.
  var unreportedFailure: String? {
    lock.lock()
    defer { lock.unlock() }
    return failureReported ? nil : failed
  }

  /// Everything written so far to a capturing writer, as UTF-8 text (empty for real streams).
  public var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: captured, as: UTF8.self)
  }
}
