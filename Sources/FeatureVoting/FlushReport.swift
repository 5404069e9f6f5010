import Foundation

/// What sending the offline queue did.
public struct FlushReport: Sendable, Equatable {
  /// A queued vote the server refused, and why; it has been undone.
  public struct Refusal: Sendable, Equatable {
    /// The vote that was refused.
    public var vote: PendingVote
    /// The server's answer.
    public var error: VotingError

    /// Creates a refusal.
    public init(vote: PendingVote, error: VotingError) {
      self.vote = vote
      self.error = error
    }
  }

  /// The votes the server accepted, in the order sent.
  public var sent: [PendingVote]
  /// The votes the server refused (each undone), in the order sent.
  public var refused: [Refusal]
  /// How many votes are still queued (the server could not be reached, or failed).
  public var remaining: Int
  /// Why sending stopped with votes still queued, if it did.
  public var stoppedBy: VotingError?

  /// Creates a report.
  public init(
    sent: [PendingVote] = [], refused: [Refusal] = [], remaining: Int = 0,
    stoppedBy: VotingError? = nil
  ) {
    self.sent = sent
    self.refused = refused
    self.remaining = remaining
    self.stoppedBy = stoppedBy
  }
}
