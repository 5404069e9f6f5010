import Foundation

/// Records the outcome of each write and answers ``StoreWriteHealth`` from any thread.
final class WriteHealthTracker: @unchecked Sendable {
  private let lock = NSLock()
  private var lastFailure: VoteStoreError?
  private var lastFailureAt: Int64?
  private var lastSuccessAt: Int64?
  private var failedSinceSuccess = false
  private var failures: Int64 = 0

  /// Records a write's outcome: nil for success; refusals and `.closed` are not counted.
  func record(_ error: VoteStoreError?, now: Int64 = currentMilliseconds()) {
    if let error, !error.isStoreFailure { return }
    lock.withLock {
      if let error {
        lastFailure = error
        lastFailureAt = now
        failedSinceSuccess = true
        failures = failures &+ 1
      } else {
        lastSuccessAt = now
        failedSinceSuccess = false
      }
    }
  }

  /// Runs `body` and records its outcome.
  func tracking<T>(_ body: () async throws(VoteStoreError) -> T) async throws(VoteStoreError) -> T {
    do throws(VoteStoreError) {
      let value = try await body()
      record(nil)
      return value
    } catch {
      record(error)
      throw error
    }
  }

  /// The health as of `now`.
  func health(now: Int64 = currentMilliseconds()) -> StoreWriteHealth {
    lock.withLock {
      let recent = lastFailureAt.map { now &- $0 < StoreWriteHealth.window } ?? false
      return StoreWriteHealth(
        isFailing: failedSinceSuccess && recent, lastFailure: lastFailure,
        lastFailureAt: lastFailureAt, lastSuccessAt: lastSuccessAt, failures: failures)
    }
  }

  /// Throws the last failure, described as such, while writes are failing.
  func throwIfFailing() throws(VoteStoreError) {
    let health = health()
    if health.isFailing, let failure = health.lastFailure {
      throw VoteStoreError(
        failure.kind, "writes are failing: \(failure.message)",
        publicDetail: failure.publicDetail)
    }
  }
}
