import Foundation

/// The whole project as one document (`GET …/export`), which `POST …/import` recreates in an
/// empty project.
public struct ProjectExport: Sendable, Hashable {
  /// One exported feature: the feature (without `voted`) and its imported votes.
  public struct ExportedFeature: Sendable, Hashable {
    /// The feature; `voted` is always false.
    public var feature: Feature
    /// What the last import set (its anonymous part when nothing was imported).
    public var importedVotes: Int
    /// Creates an exported feature.
    public init(feature: Feature, importedVotes: Int) {
      self.feature = feature
      self.importedVotes = importedVotes
    }
  }

  /// The document's `format`.
  public static let formatName = "votefirst-export"
  /// The version this code writes and reads.
  public static let currentVersion = 1

  /// The format version.
  public var version: Int
  /// The project id it came from.
  public var project: String
  /// When it was made.
  public var exportedAt: Date
  /// The settings.
  public var settings: ProjectSettings
  /// Every board, the roadmap board first.
  public var boards: [Board]
  /// Every stage.
  public var stages: [Stage]
  /// Every tag.
  public var tags: [FeatureTag]
  /// Every feature, by id.
  public var features: [ExportedFeature]
  /// Every release.
  public var releases: [Release]
  /// Every suggestion, pending ones too.
  public var suggestions: [Suggestion]

  /// Creates an export.
  public init(
    version: Int = ProjectExport.currentVersion, project: String, exportedAt: Date,
    settings: ProjectSettings, boards: [Board], stages: [Stage], tags: [FeatureTag],
    features: [ExportedFeature], releases: [Release], suggestions: [Suggestion]
  ) {
    self.version = version
    self.project = project
    self.exportedAt = exportedAt
    self.settings = settings
    self.boards = boards
    self.stages = stages
    self.tags = tags
    self.features = features
    self.releases = releases
    self.suggestions = suggestions
  }
}
