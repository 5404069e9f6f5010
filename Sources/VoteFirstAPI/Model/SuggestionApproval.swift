/// The optional body of `POST …/suggestions/:id/approve`: where the new feature goes and
/// the ref it gets.
public struct SuggestionApproval: Sendable, Hashable {
  /// The stage the feature starts in; nil for none.
  public var stage: Int?
  /// The new feature's ref; nil for the server's choice, `vf-` and the feature's id (so the
  /// Roadmap JSON the board publishes names it by an id whose counter is the one it counts
  /// in).
  public var ref: String?

  /// Creates the body.
  public init(stage: Int? = nil, ref: String? = nil) {
    self.stage = stage
    self.ref = ref
  }
}
