import Testing

@testable import VoteStore

/// The vote rules as a table: tally and change in, outcome, tally and voter change out.
@Suite struct VoteDecisionTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    var tally: (anonymous: Int64, identified: Int64)
    var delta: Int64
    var voter: Bool?  // nil: anonymous; else whether the voter holds a vote
    var checkBounds = false
    var bounds: (Int64, Int64) = (-1, 1)
    var outcome: MutationResult.Outcome
    var after: (anonymous: Int64, identified: Int64)
    var change: VoteDecision.VoterChange = .none

    var testDescription: String { name }
  }

  static let max = CounterLimits.maximum

  static let rows: [Row] = [
    Row(
      name: "anonymous +1", tally: (0, 0), delta: 1, voter: nil, outcome: .applied,
      after: (1, 0)),
    Row(
      name: "anonymous +5 beside a voter", tally: (2, 1), delta: 5, voter: nil,
      outcome: .applied, after: (7, 1)),
    Row(
      name: "anonymous −1 takes an anonymous vote", tally: (2, 1), delta: -1, voter: nil,
      outcome: .applied, after: (1, 1)),
    Row(
      name: "anonymous −5 takes only the anonymous votes", tally: (2, 3), delta: -5,
      voter: nil, outcome: .applied, after: (0, 3)),
    Row(
      name: "anonymous −1 with only a voter's vote (issue 7, item 6)", tally: (0, 1),
      delta: -1, voter: nil, outcome: .atZero, after: (0, 1)),
    Row(
      name: "anonymous −1 at zero", tally: (0, 0), delta: -1, voter: nil, outcome: .atZero,
      after: (0, 0)),
    Row(
      name: "anonymous Int64.min saturates", tally: (4, 1), delta: .min, voter: nil,
      outcome: .applied, after: (0, 1)),
    Row(
      name: "voter votes", tally: (3, 0), delta: 1, voter: false, outcome: .applied,
      after: (3, 1), change: .record),
    Row(
      name: "a voter's +5 is one vote", tally: (0, 0), delta: 5, voter: false,
      outcome: .applied, after: (0, 1), change: .record),
    Row(
      name: "voter votes twice", tally: (0, 1), delta: 1, voter: true, outcome: .alreadyVoted,
      after: (0, 1)),
    Row(
      name: "voter unvotes, anonymous votes stay", tally: (4, 2), delta: -1, voter: true,
      outcome: .applied, after: (4, 1), change: .remove),
    Row(
      name: "voter without a vote unvotes", tally: (4, 2), delta: -1, voter: false,
      outcome: .notVoted, after: (4, 2)),
    Row(
      name: "zero changes nothing", tally: (1, 1), delta: 0, voter: false, outcome: .applied,
      after: (1, 1)),
    Row(
      name: "above the upper bound", tally: (1, 0), delta: 2, voter: nil, checkBounds: true,
      outcome: .outOfBounds, after: (1, 0)),
    Row(
      name: "below the lower bound, voter", tally: (0, 1), delta: -2, voter: true,
      checkBounds: true, outcome: .outOfBounds, after: (0, 1)),
    Row(
      name: "bounds unchecked", tally: (0, 0), delta: 2, voter: nil, outcome: .applied,
      after: (2, 0)),
    Row(
      name: "up to the limit", tally: (max - 3, 1), delta: 2, voter: nil, outcome: .applied,
      after: (max - 1, 1)),
  ]

  @Test(arguments: rows)
  func decision(row: Row) throws {
    let decision = try VoteDecision.apply(
      delta: row.delta, voterHasVoted: row.voter, checkBounds: row.checkBounds,
      lower: row.bounds.0, upper: row.bounds.1,
      to: CounterTally(anonymous: row.tally.anonymous, identified: row.tally.identified))
    #expect(decision.outcome == row.outcome)
    #expect(decision.tally.anonymous == row.after.anonymous)
    #expect(decision.tally.identified == row.after.identified)
    #expect(decision.voterChange == row.change)
    let changed = row.after != row.tally || row.change != .none
    #expect(decision.changes == changed)
  }

  struct OverflowRow: Sendable, CustomTestStringConvertible {
    var name: String
    var tally: (Int64, Int64)
    var delta: Int64
    var voter: Bool?
    var testDescription: String { name }
  }

  @Test(arguments: [
    OverflowRow(name: "anonymous past the limit", tally: (max, 0), delta: 1, voter: nil),
    OverflowRow(name: "voter past the limit", tally: (max - 1, 1), delta: 1, voter: false),
    OverflowRow(name: "Int64.max", tally: (1, 0), delta: .max, voter: nil),
    OverflowRow(name: "2^53 at once", tally: (0, 0), delta: max + 1, voter: nil),
  ])
  func overflowIsRefused(row: OverflowRow) {
    var kind: VoteStoreError.Kind?
    do {
      _ = try VoteDecision.apply(
        delta: row.delta, voterHasVoted: row.voter, checkBounds: false, lower: -1, upper: 1,
        to: CounterTally(anonymous: row.tally.0, identified: row.tally.1))
    } catch {
      kind = error.kind
    }
    #expect(kind == .outOfRange)
  }

  @Test(
    arguments: [
      // (anonymous, identified) before, value set, (anonymous, identified) after, change
      ((2, 3), 10, (7, 3), VoteDecision.VoterChange.none),
      ((2, 3), 3, (0, 3), .none),
      ((2, 3), 2, (2, 0), .removeAll),
      ((0, 1), 0, (0, 0), .removeAll),
      ((5, 0), -4, (0, 0), .none),
    ] as [((Int64, Int64), Int64, (Int64, Int64), VoteDecision.VoterChange)])
  func set(
    before: (Int64, Int64), value: Int64, after: (Int64, Int64),
    change: VoteDecision.VoterChange
  ) throws {
    let decision = try VoteDecision.set(
      value: value, on: CounterTally(anonymous: before.0, identified: before.1))
    #expect(decision.outcome == .applied)
    #expect(decision.tally == CounterTally(anonymous: after.0, identified: after.1))
    #expect(decision.voterChange == change)
  }

  @Test func aSetPastTheLimitIsRefused() {
    #expect(throws: VoteStoreError.self) {
      try VoteDecision.set(value: Self.max + 1, on: CounterTally(anonymous: 0, identified: 0))
    }
  }

  @Test func aStoredTallyOutsideItsCountIsClamped() {
    #expect(CounterTally(value: 3, anonymous: 9) == CounterTally(anonymous: 3, identified: 0))
    #expect(CounterTally(value: 3, anonymous: -2) == CounterTally(anonymous: 0, identified: 3))
    #expect(CounterTally(value: -1, anonymous: 0) == CounterTally(anonymous: 0, identified: 0))
  }
}
