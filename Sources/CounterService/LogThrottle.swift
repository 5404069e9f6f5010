/// Decides which lines of a repeated error get logged: the first at once, then at most one
/// summary per interval with how many were left out and the last of them.
///
/// A plain value with the clock passed in (seconds, any monotonic origin), so the decision
/// is tested as a table. One outage of a minute at 200 failing requests a second logs
/// about seven lines, not 12,000; `roadmap_store_errors_total` still counts every one.
struct LogThrottle: Sendable, Equatable {
  /// The shortest time between two lines, in seconds.
  let interval: Double
  /// Lines left out since the last line written.
  private(set) var suppressed = 0
  /// When the last line was written; nil when quiet for a whole interval.
  private var lastWritten: Double?
  /// The last line left out, shown in the summary.
  private var lastSuppressed: String?

  /// Creates a throttle writing at most one line per `interval` seconds.
  init(interval: Double) {
    self.interval = max(0, interval)
  }

  /// An error happened at `now`: the lines to log for it (none while throttled).
  mutating func record(_ line: String, now: Double) -> [String] {
    if let lastWritten, now - lastWritten < interval {
      suppressed += 1
      lastSuppressed = line
      return []
    }
    var lines = summary(now: now).map { [$0] } ?? []
    lines.append(line)
    lastWritten = now
    return lines
  }

  /// Time passed (any request calls this): the summary line when one is due, or, after a
  /// whole interval without any error, one line saying they have stopped (so a log whose
  /// last word was an outage's summary says when it ended).
  mutating func tick(now: Double) -> [String] {
    guard let lastWritten, now - lastWritten >= interval else { return [] }
    guard let line = summary(now: now) else {
      self.lastWritten = nil
      guard interval > 0 else { return [] }  // every line is written: none to end
      let seconds = Int((now - lastWritten).rounded())
      return ["none like it in the last \(seconds) s: the errors have stopped"]
    }
    self.lastWritten = now
    return [line]
  }

  private mutating func summary(now: Double) -> String? {
    guard suppressed > 0, let lastWritten, let lastSuppressed else { return nil }
    let seconds = Int((now - lastWritten).rounded())
    let line =
      "\(suppressed) more like it in the last \(seconds) s (not logged one by one); "
      + "the last: \(lastSuppressed)"
    suppressed = 0
    self.lastSuppressed = nil
    return line
  }
}
