/// A counter's count split the way the vote rules keep it: anonymous votes plus identified
/// voters (each voter id holds at most one vote). The count is always their sum.
struct CounterTally: Sendable, Equatable {
  /// Votes without a voter id (never below zero).
  var anonymous: Int64
  /// Voters who hold a vote (the rows of the voter set).
  var identified: Int64

  /// The count: anonymous plus identified. Both parts are within ``CounterLimits`` and so is
  /// their sum (every decision checks it), so the addition cannot overflow.
  var value: Int64 { anonymous &+ identified }

  /// A tally from a stored count and its anonymous part; a stored anonymous part outside
  /// `0…value` (impossible under the schema's CHECK) is clamped rather than trusted.
  init(value: Int64, anonymous: Int64) {
    let count = max(0, value)
    self.anonymous = min(max(0, anonymous), count)
    identified = count &- self.anonymous
  }

  /// A tally from its two parts.
  init(anonymous: Int64, identified: Int64) {
    self.anonymous = anonymous
    self.identified = identified
  }
}

/// The vote rules, once: given a counter's tally and one change, what the change does.
///
/// Both stores read the counter (and, for a voter, whether that voter holds a vote) under
/// their write lock, ask this type, and carry out the answer: write ``tally``, record or remove
/// the voter as ``voterChange`` says. Nothing here does I/O, so the rules are tested as a
/// table (`VoteDecisionTests`).
///
/// - Anonymous `+n` adds `n` anonymous votes; anonymous `−n` removes up to `n` anonymous votes
///   and never touches a voter's vote (`.atZero` when there are none to remove).
/// - A voter's positive change records that voter's one vote (worth 1, whatever `n`), or is
///   `.alreadyVoted`; a negative one removes it (−1), or is `.notVoted`.
/// - With `checkBounds`, a change outside the counter's update bounds is `.outOfBounds`.
/// - A change that would take the count past ``CounterLimits/maximum`` throws `.outOfRange`.
/// - A `set` to `n` keeps the voters when `n` is at least their number (the rest is
///   anonymous); below it, it forgets every voter (a reset: they may vote again).
struct VoteDecision: Sendable, Equatable {
  /// What happens to the voter set.
  enum VoterChange: Sendable, Equatable {
    /// Nothing.
    case none
    /// Record the mutation's voter.
    case record
    /// Remove the mutation's voter.
    case remove
    /// Remove every voter of the counter.
    case removeAll
  }

  /// What the caller is told.
  var outcome: MutationResult.Outcome
  /// The counter's tally after the change.
  var tally: CounterTally
  /// What the store does to the voter set.
  var voterChange: VoterChange

  /// Whether the store must write anything (and count an update).
  var changes: Bool { voterChange != .none || tally != before }
  private let before: CounterTally

  private init(
    _ outcome: MutationResult.Outcome, before: CounterTally, after: CounterTally,
    voterChange: VoterChange = .none
  ) {
    self.outcome = outcome
    self.before = before
    tally = after
    self.voterChange = voterChange
  }

  /// The decision for adding `delta` to a counter with `tally` and update bounds
  /// `lower…upper`. `voterHasVoted` is nil for an anonymous change, else whether the
  /// mutation's voter holds a vote on the counter.
  static func apply(
    delta: Int64, voterHasVoted: Bool?, checkBounds: Bool, lower: Int64, upper: Int64,
    to tally: CounterTally
  ) throws(VoteStoreError) -> VoteDecision {
    if checkBounds && (delta < lower || delta > upper) {
      return VoteDecision(.outOfBounds, before: tally, after: tally)
    }
    if delta == 0 { return VoteDecision(.applied, before: tally, after: tally) }
    var after = tally
    if let hasVoted = voterHasVoted {
      if delta > 0 {
        if hasVoted { return VoteDecision(.alreadyVoted, before: tally, after: tally) }
        try checkRoom(1, tally)
        after.identified += 1
        return VoteDecision(.applied, before: tally, after: after, voterChange: .record)
      }
      if !hasVoted { return VoteDecision(.notVoted, before: tally, after: tally) }
      after.identified = max(0, after.identified - 1)
      return VoteDecision(.applied, before: tally, after: after, voterChange: .remove)
    }
    if delta > 0 {
      try checkRoom(delta, tally)
      after.anonymous += delta
      return VoteDecision(.applied, before: tally, after: after)
    }
    if tally.anonymous == 0 { return VoteDecision(.atZero, before: tally, after: tally) }
    // delta < 0 and anonymous ≥ 0: the sum cannot overflow (at worst ≥ Int64.min + 0).
    after.anonymous = max(0, tally.anonymous + delta)
    return VoteDecision(.applied, before: tally, after: after)
  }

  /// The decision for setting a counter with `tally` to `value` (clamped at zero).
  static func set(value: Int64, on tally: CounterTally) throws(VoteStoreError) -> VoteDecision {
    try CounterLimits.check(value: value, "the value")
    let count = max(0, value)
    if count >= tally.identified {
      return VoteDecision(
        .applied, before: tally,
        after: CounterTally(anonymous: count - tally.identified, identified: tally.identified))
    }
    return VoteDecision(
      .applied, before: tally, after: CounterTally(anonymous: count, identified: 0),
      voterChange: tally.identified > 0 ? .removeAll : .none)
  }

  /// Throws `.outOfRange` unless `amount` more votes keep the count within the limit.
  private static func checkRoom(_ amount: Int64, _ tally: CounterTally) throws(VoteStoreError) {
    guard amount <= CounterLimits.maximum - tally.value else {
      throw .outOfRange(
        "adding \(amount) to \(tally.value) would pass \(CounterLimits.maximum) (2^53−1)")
    }
  }
}
