/// What `RoadmapValidator` checks beyond the rules it always applies.
public struct ValidationOptions: Sendable {
  /// Judge as the Roadmap package reads: any error means the app shows an empty roadmap, so
  /// no feature counts as loaded (`--compatible`).
  public var compatible: Bool = false
  /// Languages every feature must localize, such as `["en", "de"]` (`--languages`).
  public var languages: [String]? = nil
  /// The allowed `status` values (`--statuses`); nil allows any.
  public var statuses: [String]? = nil
  /// The counter key built from an id; `{id}` is replaced by the id.
  public var keyTemplate: String = "feature{id}"
  /// Whether an id that disappeared since the previous version is allowed (`--allow-removed`).
  public var allowRemoved: Bool = false

  /// Creates options; every parameter has the default a plain `roadmapctl validate` uses.
  ///
  /// - Parameters:
  ///   - compatible: judge as the Roadmap package reads.
  ///   - languages: languages every feature must localize.
  ///   - statuses: allowed status values.
  ///   - keyTemplate: counter key template with `{id}`.
  ///   - allowRemoved: allow ids that disappeared since the previous version.
  public init(
    compatible: Bool = false, languages: [String]? = nil, statuses: [String]? = nil,
    keyTemplate: String = "feature{id}", allowRemoved: Bool = false
  ) {
    self.compatible = compatible
    self.languages = languages
    self.statuses = statuses
    self.keyTemplate = keyTemplate
    self.allowRemoved = allowRemoved
  }

  /// What is wrong with `language` as a language to require (`--languages`), or nil when it is
  /// written as the app's localizations are named (`en`, `de`, `zh-Hans`, `pt-BR`).
  ///
  /// The rule is the one the validator applies to the `language` of a localized item
  /// (`malformed-language-tag`): the app compares languages exactly, so `EN`, `en_US` or
  /// `pt-br` never match a localization. The text goes after the quoted language and names
  /// the right spelling where there is one (`starts with an uppercase language code, … write
  /// "en"`).
  ///
  /// - Parameter language: the language as given.
  /// - Returns: the problem, or nil.
  public static func problem(withLanguage language: String) -> String? {
    RoadmapParser.languageTagProblem(language)
  }
}
