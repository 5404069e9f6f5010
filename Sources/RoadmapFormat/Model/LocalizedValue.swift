/// One translation of a feature field: a language tag and the text in that language.
///
/// Roadmap JSON writes localized fields as arrays of `{"language": "de", "value": "Geplant"}`.
public struct LocalizedValue: Codable, Sendable, Hashable {
  /// The language tag as written in the file, such as `en`, `de` or `zh-Hans`.
  public var language: String
  /// The text in that language.
  public var value: String

  /// Creates a translation.
  ///
  /// - Parameters:
  ///   - language: the language tag, such as `pt-BR`.
  ///   - value: the text in that language.
  public init(language: String, value: String) {
    self.language = language
    self.value = value
  }
}
