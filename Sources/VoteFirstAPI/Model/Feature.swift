import Foundation

/// A feature on a board, as readers see it: its content, its votes and whether this voter
/// voted.
///
/// The content's fields read straight through (`feature.title`).
@dynamicMemberLookup
public struct Feature: Sendable, Hashable, Identifiable {
  /// The server's id.
  public var id: Int
  /// What the owner wrote.
  public var content: FeatureContent
  /// The vote count: anonymous (imported) plus identified votes.
  public var votes: Int
  /// Whether the voter who asked holds a vote.
  public var voted: Bool
  /// When the server first stored it.
  public var createdAt: Date

  /// Creates a feature.
  public init(
    id: Int, content: FeatureContent, votes: Int = 0, voted: Bool = false, createdAt: Date
  ) {
    self.id = id
    self.content = content
    self.votes = votes
    self.voted = voted
    self.createdAt = createdAt
  }

  /// A field of ``content``.
  public subscript<Value>(dynamicMember path: WritableKeyPath<FeatureContent, Value>) -> Value {
    get { content[keyPath: path] }
    set { content[keyPath: path] = newValue }
  }

  /// Whether it is finished: its own flag, or else its stage's (`stageFinished`).
  public func isFinished(stageFinished: Bool) -> Bool {
    content.isFinished ?? stageFinished
  }
}
