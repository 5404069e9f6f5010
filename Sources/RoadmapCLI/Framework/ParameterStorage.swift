import Foundation

/// The value a property wrapper shows, set once by the framework after parsing.
///
/// Commands are value types created with `init()`; their wrappers share this box with the copy
/// the framework reflects over, so binding the parsed values reaches the command that runs.
final class ParameterStorage<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value?

  init(_ initial: Value?) {
    stored = initial
  }

  /// The value; before binding, the declared default (nil for a required parameter).
  var value: Value? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
