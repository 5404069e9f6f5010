/// Everything `RoadmapValidator` found in one document.
public struct ValidationReport: Sendable {
  /// Every problem, sorted by line, then column.
  public var diagnostics: [Diagnostic]
  /// The features that loaded (lenient reading; empty in compatible mode when there are errors).
  public var features: [RoadmapFeature]
  /// The number of elements of the top-level array (0 if it is not an array).
  public var featureCount: Int

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - diagnostics: the problems, sorted by position.
  ///   - features: the features that loaded.
  ///   - featureCount: elements of the top-level array.
  public init(diagnostics: [Diagnostic], features: [RoadmapFeature], featureCount: Int) {
    self.diagnostics = diagnostics
    self.features = features
    self.featureCount = featureCount
  }

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// Whether any diagnostic is a warning.
  public var hasWarnings: Bool { diagnostics.contains { $0.severity == .warning } }
}
