/// A project as stored: its settings document and when it came into being.
public struct BoardProjectRow: Sendable, Hashable, Codable {
  /// The project (the counters' namespace).
  public var project: String
  /// The settings as JSON.
  public var settings: String
  /// When the first admin call created it, in ms since 1970.
  public var createdAt: Int64

  /// Creates a row.
  public init(project: String, settings: String, createdAt: Int64) {
    self.project = project
    self.settings = settings
    self.createdAt = createdAt
  }
}
