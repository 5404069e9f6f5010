import Foundation

/// Checks a Roadmap JSON document against every rule and reports each problem as a value.
///
/// One pass reads the document (syntax, shapes, per-feature warnings); the rules that need
/// every feature (duplicate ids, counter keys, language coverage, `--languages`,
/// `--statuses`, the comparison with the previous version) run on what that pass recorded.
/// The rules and their codes are listed in `docs/roadmap-format.md`.
public struct RoadmapValidator: Sendable {
  /// The options in force.
  public var options: ValidationOptions

  /// Creates a validator.
  ///
  /// - Parameter options: what to check beyond the rules always applied.
  public init(options: ValidationOptions = .init()) {
    self.options = options
  }

  /// Validates `bytes`, comparing with `previous` (the published version) when given.
  ///
  /// - Parameters:
  ///   - bytes: the document.
  ///   - previous: the version already published, for removed ids and renames.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(_ bytes: [UInt8], previous: [UInt8]? = nil) -> ValidationReport {
    bytes.withUnsafeBufferPointer { buffer in
      guard let previous else { return validate(buffer, previous: nil) }
      return previous.withUnsafeBufferPointer { validate(buffer, previous: $0) }
    }
  }

  /// Validates `data` without copying it (use this for large files read with `Data`).
  ///
  /// - Parameters:
  ///   - data: the document.
  ///   - previous: the version already published, for removed ids and renames.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(_ data: Data, previous: Data? = nil) -> ValidationReport {
    data.withUnsafeBytes { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      guard let previous else { return validate(buffer, previous: nil) }
      return previous.withUnsafeBytes { validate(buffer, previous: $0.bindMemory(to: UInt8.self)) }
    }
  }

  /// Validates a buffer of UTF-8 bytes, comparing with `previous` when given.
  ///
  /// - Parameters:
  ///   - buffer: the document.
  ///   - previous: the version already published.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(
    _ buffer: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>?
  ) -> ValidationReport {
    var outcome = ParseOutcome.parse(buffer, collectWarnings: true)
    var issues = outcome.issues
    outcome.issues = []
    var rules = CrossFeatureRules(options: options, outcome: outcome)
    rules.run()
    if let previous {
      rules.compare(withPrevious: previous)
    }
    issues += rules.issues
    let rejected =
      outcome.fatal || !outcome.topLevelIsArray || issues.contains { $0.rejectedByRoadmap }
    let diagnostics = ParseOutcome.diagnostics(issues, suppressed: outcome.suppressed, in: buffer)
    return ValidationReport(
      diagnostics: diagnostics,
      features: options.compatible && rejected ? [] : outcome.features,
      featureCount: outcome.featureCount)
  }
}
