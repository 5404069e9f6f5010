import Foundation

/// Holds threads until `count` of them have arrived (or 60 s passed, so that one that never
/// comes cannot hang a test), then lets all go at once: for tests that need several requests
/// or database writes to begin together.
public final class StartLine: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private var arrived = 0

  /// A line that lets go once `count` threads have arrived.
  public init(_ count: Int) { self.count = count }

  /// Arrives, and waits until all have (at most 60 s).
  public func arriveAndWait() {
    condition.lock()
    defer { condition.unlock() }
    arrived += 1
    if arrived >= count {
      condition.broadcast()
      return
    }
    let deadline = Date(timeIntervalSinceNow: 60)
    while arrived < count && condition.wait(until: deadline) {}
  }
}
