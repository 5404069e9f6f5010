import Foundation

/// Runs `body` on a thread of its own and returns its result, for work that blocks or spins
/// (a busy wait, a blocking call): on a thread of the cooperative pool it would hold one of
/// the pool's few threads (as many as the machine has cores) that every other test needs, and
/// a spin that waits for another task could wait for ever.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}
