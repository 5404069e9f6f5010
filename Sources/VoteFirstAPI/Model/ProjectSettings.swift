/// A project's settings: what voters may do and how the board looks.
public struct ProjectSettings: Sendable, Hashable {
  /// The default counter key template: `feature` + the Roadmap id.
  public static let defaultVoteKeyTemplate = "feature{id}"

  /// The name shown on the board; nil means the project id.
  public var name: String?
  /// Whether anyone may vote in this project.
  public var votingEnabled: Bool
  /// Whether voters may send suggestions.
  public var suggestionsEnabled: Bool
  /// Whether comments are shown.
  public var commentsEnabled: Bool
  /// Whether features carry their view counts.
  public var showViewCounts: Bool
  /// The counter key of a feature: `{id}` is replaced by its ref.
  public var voteKeyTemplate: String
  /// The board's look.
  public var theme: Theme

  /// Creates settings; the defaults are those of a new project.
  public init(
    name: String? = nil, votingEnabled: Bool = true, suggestionsEnabled: Bool = true,
    commentsEnabled: Bool = false, showViewCounts: Bool = false,
    voteKeyTemplate: String = ProjectSettings.defaultVoteKeyTemplate, theme: Theme = Theme()
  ) {
    self.name = name
    self.votingEnabled = votingEnabled
    self.suggestionsEnabled = suggestionsEnabled
    self.commentsEnabled = commentsEnabled
    self.showViewCounts = showViewCounts
    self.voteKeyTemplate = voteKeyTemplate
    self.theme = theme
  }

  /// The counter key of a feature with `ref`, through ``voteKeyTemplate``.
  public func voteKey(ref: String) -> String {
    voteKeyTemplate.replacingOccurrences(of: "{id}", with: ref)
  }
}
