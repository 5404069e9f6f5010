import Foundation
import VoteFirstAPI

/// How the sync commands meet a server's rate limit (`serve`'s `--read-limit` for reads made
/// without the admin token; a proxy in front, or an older `serve`, may limit every call): a
/// call answered
/// 429 was refused before anything was done, so it is sent again after the `Retry-After` the
/// server gave, in seconds or as an HTTP date (1 s when it gave none or neither, at least 1 s
/// and at most 60 s at a time), for at most 10 minutes of
/// waiting per call (`ROADMAPCTL_RATE_LIMIT_WAIT` seconds, when set; 0 fails at the first
/// 429). A failure is said only after that.
struct RateLimitPatience {
  /// The longest wait before one retry, in seconds.
  static let longestWait: TimeInterval = 60
  /// The most waiting one call may do by default, in seconds.
  static let defaultMostWaiting: TimeInterval = 600

  /// The most waiting one call may do: `ROADMAPCTL_RATE_LIMIT_WAIT` (whole seconds, 0 or
  /// more), else ``defaultMostWaiting``.
  static let mostWaiting: TimeInterval = {
    let setting = ProcessInfo.processInfo.environment["ROADMAPCTL_RATE_LIMIT_WAIT"]
    return setting.flatMap { Int($0) }.map { TimeInterval(max(0, $0)) } ?? defaultMostWaiting
  }()

  private var waited: TimeInterval = 0

  /// Waits before sending the refused call again, and says whether to; false once the call
  /// has waited ``mostWaiting`` (or the task was cancelled).
  mutating func waitToRetry(retryAfter: Int?) async -> Bool {
    guard waited < Self.mostWaiting, !Task.isCancelled else { return false }
    let seconds = min(Double(max(retryAfter ?? 1, 1)), Self.longestWait)
    waited += seconds
    do {
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    } catch {
      return false
    }
    return true
  }

  /// The whole seconds a `Retry-After` field asks for: a number of seconds, or an HTTP date
  /// counted from now (0 when past), read by ``VoteFirstAPI/RetryAfter``; nil when absent or
  /// neither.
  static func seconds(_ field: String?) -> Int? {
    RetryAfter.wholeSeconds(field)
  }
}
