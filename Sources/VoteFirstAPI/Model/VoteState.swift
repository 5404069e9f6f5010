/// A feature's count and whether this voter holds a vote, as a vote or unvote answers.
public struct VoteState: Sendable, Hashable {
  /// The count after the call.
  public var votes: Int
  /// Whether the voter holds a vote after the call.
  public var voted: Bool

  /// Creates a vote state.
  public init(votes: Int, voted: Bool) {
    self.votes = votes
    self.voted = voted
  }
}
