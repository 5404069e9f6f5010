/// The numbers a counter may hold: every count and update bound lies within ±(2^53−1).
///
/// 2^53−1 is the largest integer a JSON number keeps exactly in every client (JavaScript's
/// `Number.MAX_SAFE_INTEGER`, a Swift `Double`). A write that would leave the range is
/// refused with ``VoteStoreError/Kind/outOfRange`` and changes nothing; no stored value is
/// ever outside it, so no arithmetic on stored values can overflow.
public enum CounterLimits {
  /// 2^53−1 = 9,007,199,254,740,991.
  public static let maximum: Int64 = (1 << 53) - 1

  /// −(2^53−1)…2^53−1, for update bounds (and amounts) that may be negative.
  public static let range: ClosedRange<Int64> = -maximum...maximum

  /// Whether `value` lies within ``range``.
  public static func contains(_ value: Int64) -> Bool { range.contains(value) }
}
