/// The range of the vote counts this module keeps, and arithmetic on counts that cannot trap.
enum VoteCount {
  /// The largest count a ``FileVoter`` file holds: 2^53 − 1 (9,007,199,254,740,991), the
  /// largest count `roadmapctl serve` keeps and the largest integer a JSON number carries
  /// exactly to every client (JavaScript's `Number.MAX_SAFE_INTEGER`, a `Double`), which is
  /// also the largest count ``CountingAPIVoter`` reads from an answer.
  static let maximum = Int(clamping: (Int64(1) << 53) - 1)

  /// `count` changed by `delta` (a queued vote's +1 or −1), never below 0; a sum past `Int.max`
  /// (a base voter of the app's own answering `Int.max`) is `Int.max`, not a trap.
  static func adjusted(_ count: Int, by delta: Int) -> Int {
    let (sum, overflow) = count.addingReportingOverflow(delta)
    if overflow { return delta > 0 ? .max : 0 }
    return max(0, sum)
  }
}
