import Foundation

/// The client's voter id, changed by `forget()` from any task.
final class VoterIDBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: String

  init(_ value: String) { self.value = value }

  var current: String {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func replace(with newValue: String) {
    lock.lock()
    value = newValue
    lock.unlock()
  }
}
