import Foundation

/// A vote or unvote cast while the server could not be reached, waiting in the offline queue.
public struct PendingVote: Sendable, Hashable, Codable {
  /// Which way the vote goes.
  public enum Action: String, Sendable, Hashable, Codable {
    /// Cast a vote.
    case vote
    /// Withdraw a vote.
    case unvote
  }

  /// The feature's id.
  public var featureID: String
  /// Vote or unvote.
  public var action: Action
  /// When it was cast, in seconds since 1970.
  public var castAt: TimeInterval

  /// Creates a pending vote.
  public init(
    featureID: String, action: Action, castAt: TimeInterval = Date().timeIntervalSince1970
  ) {
    self.featureID = featureID
    self.action = action
    self.castAt = castAt
  }
}
