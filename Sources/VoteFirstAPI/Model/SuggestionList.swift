/// The answer of the admin's `GET …/suggestions`.
public struct SuggestionList: Sendable, Hashable {
  /// The suggestions, oldest first.
  public var suggestions: [Suggestion]

  /// Creates a list.
  public init(suggestions: [Suggestion]) {
    self.suggestions = suggestions
  }
}
