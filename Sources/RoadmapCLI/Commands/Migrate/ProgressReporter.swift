import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Progress of a long step on standard error: a bar redrawn in place on a terminal, plain
/// lines at every tenth otherwise (logs, CI).
final class ProgressReporter: @unchecked Sendable {
  private let lock = NSLock()
  private let output: TextOutput
  private let terminal: Bool
  private let total: Int
  private let label: String
  private var lastTenth = -1
  private var lastDrawn = -1
  private var lastDone = 0
  private var finished = false

  /// A reporter of `total` steps named `label`, drawing a bar when `output` is the process's
  /// standard error and that is a terminal.
  init(_ label: String, total: Int, output: TextOutput) {
    self.label = label
    self.total = max(total, 1)
    self.output = output
    terminal = output === TextOutput.standardError && isatty(STDERR_FILENO) == 1
  }

  /// `done` of the total are done.
  func update(_ done: Int) {
    lock.lock()
    defer { lock.unlock() }
    guard !finished else { return }
    lastDone = done
    if terminal {
      let width = 30
      let filled = min(width, done * width / total)
      guard filled != lastDrawn || done == total else { return }
      lastDrawn = filled
      let bar =
        String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
      output.write("\r\(label) [\(bar)] \(done)/\(total)")
      if done >= total {
        output.write("\n")
        finished = true
      }
    } else {
      let tenth = min(10, done * 10 / total)
      guard tenth > lastTenth else { return }
      lastTenth = tenth
      output.writeLine("\(label): \(done)/\(total)")
      if done >= total { finished = true }
    }
  }

  /// Writes `line` on a line of its own: on a terminal, in place of the bar, which is drawn
  /// again under it.
  func note(_ line: String) {
    lock.lock()
    defer { lock.unlock() }
    guard terminal, lastDrawn >= 0, !finished else {
      output.writeLine(line)
      return
    }
    output.write("\r\u{1B}[K")
    output.writeLine(line)
    let width = 30
    let filled = min(width, lastDone * width / total)
    let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
    output.write("\(label) [\(bar)] \(lastDone)/\(total)")
  }
}
