/// The optional body of `POST …/suggestions/:id/approve`: where the new feature goes.
public struct SuggestionApproval: Sendable, Hashable {
  /// The stage the feature starts in; nil for none.
  public var stage: Int?

  /// Creates the body.
  public init(stage: Int? = nil) {
    self.stage = stage
  }
}
