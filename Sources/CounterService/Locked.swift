import Foundation

/// A value guarded by a lock, shared between tasks.
///
/// A small class over `NSLock`, so the server modules need neither `Synchronization` nor
/// macOS 15. Keep the critical sections short: they never `await`.
final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  /// Touched only under `lock`, so the runtime's exclusivity check (a call per access, on
  /// every answer's metrics and headers) is left out.
  @exclusivity(unchecked) private var state: State

  init(_ state: State) { self.state = state }

  /// Runs `body` with exclusive access to the state.
  func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
