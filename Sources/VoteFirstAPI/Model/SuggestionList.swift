/// The answer of the admin's `GET …/suggestions`: every suggestion asked for, or one page of
/// them when a `limit` was given.
public struct SuggestionList: Sendable, Hashable {
  /// The suggestions, oldest first.
  public var suggestions: [Suggestion]
  /// The cursor of the next page (`cursor=`), or nil on the last page and without `limit`.
  public var next: String?

  /// Creates a list.
  public init(suggestions: [Suggestion], next: String? = nil) {
    self.suggestions = suggestions
    self.next = next
  }
}
