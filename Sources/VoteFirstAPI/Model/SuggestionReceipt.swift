/// The answer to a suggestion: its id and `pending`.
public struct SuggestionReceipt: Sendable, Hashable {
  /// The suggestion's id.
  public var id: Int
  /// Its state, `pending` when just sent.
  public var state: Suggestion.State

  /// Creates a receipt.
  public init(id: Int, state: Suggestion.State) {
    self.id = id
    self.state = state
  }
}
