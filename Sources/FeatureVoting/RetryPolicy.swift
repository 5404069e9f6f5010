import Foundation

/// How often a failed call is tried again, and how long to wait in between.
///
/// Only failures that may pass are retried: offline, timed out, 429 and 5xx. A 429 or 503
/// `Retry-After` longer than ``maxDelay`` ends the retries (the error carries it). Reads are
/// always retried; writes only where they are idempotent (``CountingDialect/roadmapBridge``
/// with a voter id), since a retried anonymous `/hit` could count twice.
public struct RetryPolicy: Sendable, Hashable {
  /// Attempts in all, the first included; 1 means no retry.
  public var attempts: Int
  /// The wait before the first retry, in seconds; doubled before each further one.
  public var initialDelay: TimeInterval
  /// The longest wait between two attempts, in seconds.
  public var maxDelay: TimeInterval

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - attempts: attempts in all (at least 1); 3 by default.
  ///   - initialDelay: seconds before the first retry; 0.25 by default.
  ///   - maxDelay: the longest wait in seconds; 4 by default.
  public init(attempts: Int = 3, initialDelay: TimeInterval = 0.25, maxDelay: TimeInterval = 4) {
    self.attempts = max(1, attempts)
    self.initialDelay = max(0, initialDelay)
    self.maxDelay = max(0, maxDelay)
  }

  /// No retries.
  public static let none = RetryPolicy(attempts: 1)

  /// The wait before attempt `attempt + 1` (attempt counts from 1), with up to 20 % jitter so
  /// many clients do not retry in step; a server's `Retry-After` wins when it is longer.
  func delay(after attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
    let base = min(maxDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
    let jittered = base * Double.random(in: 0.8...1.0)
    return max(jittered, retryAfter ?? 0)
  }

  /// Whether `error` is worth another attempt.
  func isRetryable(_ error: VotingError) -> Bool {
    switch error.kind {
    case .offline, .timedOut, .serverError, .rateLimited:
      guard let wait = error.retryAfter else { return true }
      return wait <= maxDelay
    default:
      return false
    }
  }
}
