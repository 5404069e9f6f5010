extension CounterLimits {
  /// Throws ``VoteStoreError/Kind/outOfRange`` unless a new counter's value and bounds lie
  /// within ``range`` (a negative starting value is clamped to zero, not refused).
  static func check(_ creation: CounterCreation) throws(VoteStoreError) {
    try check(value: creation.value, "the value")
    try check(value: creation.updateLowerBound, "update_lowerbound")
    try check(value: creation.updateUpperBound, "update_upperbound")
  }

  /// Throws ``VoteStoreError/Kind/outOfRange`` unless `value` lies within ``range``.
  static func check(value: Int64, _ what: String) throws(VoteStoreError) {
    guard contains(value) else {
      throw .outOfRange("\(what) \(value) is outside ±\(maximum) (±(2^53−1))")
    }
  }
}
