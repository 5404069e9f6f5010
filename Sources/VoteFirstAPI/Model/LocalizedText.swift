/// One per-language text, as Roadmap JSON writes it: `{"language":"de","value":"…"}`.
public struct LocalizedText: Sendable, Hashable {
  /// The language key (`en`, `zh-Hans`, `pt-BR`), compared exactly.
  public var language: String
  /// The text.
  public var value: String

  /// Creates a localized text.
  public init(language: String, value: String) {
    self.language = language
    self.value = value
  }
}
