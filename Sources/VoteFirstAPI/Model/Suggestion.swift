import Foundation

/// A feature suggested by a voter, waiting for the owner's decision.
public struct Suggestion: Sendable, Hashable, Identifiable {
  /// Where a suggestion stands.
  public struct State: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire name.
    public var rawValue: String
    /// Creates a state from its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Waiting for the owner; visible to nobody.
    public static let pending = State(rawValue: "pending")
    /// Approved: it became a feature.
    public static let approved = State(rawValue: "approved")
    /// Rejected by the owner.
    public static let rejected = State(rawValue: "rejected")
    /// The wire name.
    public var description: String { rawValue }
  }

  /// The id.
  public var id: Int
  /// The suggested title.
  public var title: String
  /// The suggested description.
  public var description: String
  /// Where it stands.
  public var state: State
  /// When it was sent.
  public var createdAt: Date
  /// The feature it became, once approved.
  public var feature: Int?

  /// Creates a suggestion.
  public init(
    id: Int, title: String, description: String, state: State, createdAt: Date,
    feature: Int? = nil
  ) {
    self.id = id
    self.title = title
    self.description = description
    self.state = state
    self.createdAt = createdAt
    self.feature = feature
  }
}
