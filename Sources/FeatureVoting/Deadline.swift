import Foundation

/// Races a piece of work against a deadline, cancelling whichever loses.
enum Deadline {
  /// How a race ended.
  enum Outcome<Value: Sendable>: Sendable {
    /// The work finished first.
    case finished(Value)
    /// The work threw first.
    case failed(any Error)
    /// The deadline came first; the work was cancelled.
    case expired
  }

  /// Runs `work`, giving up after `seconds`.
  static func race<Value: Sendable>(
    seconds: TimeInterval, _ work: @escaping @Sendable () async throws -> Value
  ) async -> Outcome<Value> {
    await withTaskGroup(of: Outcome<Value>?.self) { group in
      group.addTask {
        do { return .finished(try await work()) } catch { return .failed(error) }
      }
      group.addTask {
        let nanoseconds = UInt64(max(0, seconds) * 1_000_000_000)
        do { try await Task.sleep(nanoseconds: nanoseconds) } catch { return nil }
        return .expired
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first ?? .expired
    }
  }
}
