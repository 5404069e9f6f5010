/// A feature as an app user in one language sees it: every localized field resolved.
public struct ResolvedFeature: Sendable, Hashable {
  /// The feature's identifier.
  public var id: String
  /// The title shown; `N/A` in compatible mode when there is none.
  public var title: String
  /// The status shown, or nil for no status.
  public var status: String?
  /// The description shown; empty when there is none.
  public var description: String
  /// Whether the feature is finished (absent reads as false).
  public var isFinished: Bool
  /// The vote count from the file, if any.
  public var votes: Int?

  /// Creates a resolved feature.
  ///
  /// - Parameters:
  ///   - id: identifier.
  ///   - title: title shown.
  ///   - status: status shown.
  ///   - description: description shown.
  ///   - isFinished: finished or not.
  ///   - votes: vote count from the file.
  public init(
    id: String, title: String, status: String?, description: String, isFinished: Bool,
    votes: Int?
  ) {
    self.id = id
    self.title = title
    self.status = status
    self.description = description
    self.isFinished = isFinished
    self.votes = votes
  }
}
