import Foundation

/// Lets one task at a time through, in arrival order (an async mutex without `Synchronization`).
actor SerialGate {
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// Waits for the gate and takes it.
  func enter() async {
    if !busy {
      busy = true
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Hands the gate to the next waiting task, or opens it.
  func leave() {
    if waiting.isEmpty {
      busy = false
    } else {
      waiting.removeFirst().resume()
    }
  }

  /// Runs `body` holding the gate.
  nonisolated func run<T>(_ body: () async throws(VotingError) -> T) async throws(VotingError) -> T
  {
    await enter()
    do {
      let value = try await body()
      await leave()
      return value
    } catch {
      await leave()
      throw error
    }
  }
}
