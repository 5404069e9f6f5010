/// What a voter sends to suggest a feature: a title and a description, both required.
public struct SuggestionDraft: Sendable, Hashable {
  /// The title, 1–254 characters.
  public var title: String
  /// The description, 1–2000 characters.
  public var description: String

  /// Creates a draft.
  public init(title: String, description: String) {
    self.title = title
    self.description = description
  }
}
