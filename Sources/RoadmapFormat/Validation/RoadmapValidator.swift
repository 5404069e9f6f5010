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
  /// The report keeps `bytes` (without copying them) to read `features` on demand.
  ///
  /// - Parameters:
  ///   - bytes: the document.
  ///   - previous: the version already published, for removed ids and renames.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(_ bytes: [UInt8], previous: [UInt8]? = nil) -> ValidationReport {
    bytes.withUnsafeBufferPointer { buffer in
      let (report, rejected): (ValidationReport, Bool)
      if let previous {
        (report, rejected) = previous.withUnsafeBufferPointer {
          run(buffer, previous: $0, keepFeatures: false)
        }
      } else {
        (report, rejected) = run(buffer, previous: nil, keepFeatures: false)
      }
      return deferring(report, rejected: rejected, to: .bytes(bytes))
    }
  }

  /// Validates `data` without copying it; the report keeps `data` to read `features` on demand.
  ///
  /// - Parameters:
  ///   - data: the document.
  ///   - previous: the version already published, for removed ids and renames.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(_ data: Data, previous: Data? = nil) -> ValidationReport {
    data.withUnsafeBytes { raw in
      let buffer = raw.bindMemory(to: UInt8.self)
      let (report, rejected): (ValidationReport, Bool)
      if let previous {
        (report, rejected) = previous.withUnsafeBytes {
          run(buffer, previous: $0.bindMemory(to: UInt8.self), keepFeatures: false)
        }
      } else {
        (report, rejected) = run(buffer, previous: nil, keepFeatures: false)
      }
      return deferring(report, rejected: rejected, to: .data(data))
    }
  }

  /// Validates a document held in an array or mapped from a file, comparing with `previous`
  /// (the published version) when given.
  ///
  /// A mapped document is read without a copy, and the pages the reader has passed are handed
  /// back to the system as it goes, so a large file is never in memory whole. The report keeps
  /// `document` to read `features` on demand.
  ///
  /// - Parameters:
  ///   - document: the document.
  ///   - previous: the version already published, for removed ids and renames.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(_ document: DocumentBytes, previous: [UInt8]? = nil) -> ValidationReport {
    validate(document, previous: previous, releaseStride: 4 << 20)
  }

  /// `validate(_:previous:)` handing pages back every `releaseStride` bytes (tests use small
  /// strides).
  func validate(_ document: DocumentBytes, previous: [UInt8]?, releaseStride: Int)
    -> ValidationReport
  {
    document.withUnsafeBytes { buffer in
      let (report, rejected): (ValidationReport, Bool)
      if let previous {
        (report, rejected) = previous.withUnsafeBufferPointer {
          run(
            buffer, previous: $0, keepFeatures: false, pages: document,
            releaseStride: releaseStride)
        }
      } else {
        (report, rejected) = run(
          buffer, previous: nil, keepFeatures: false, pages: document,
          releaseStride: releaseStride)
      }
      return deferring(report, rejected: rejected, to: .document(document))
    }
  }

  /// Validates a buffer of UTF-8 bytes, comparing with `previous` when given.
  ///
  /// The buffer is not kept, so the features are built during validation.
  ///
  /// - Parameters:
  ///   - buffer: the document.
  ///   - previous: the version already published.
  /// - Returns: every problem, sorted by position, and what loaded.
  public func validate(
    _ buffer: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>?
  ) -> ValidationReport {
    run(buffer, previous: previous, keepFeatures: true).report
  }

  private func deferring(_ report: ValidationReport, rejected: Bool, to storage: FeatureStorage)
    -> ValidationReport
  {
    var deferred = ValidationReport(
      diagnostics: report.diagnostics,
      storage: options.compatible && rejected ? .loaded([]) : storage,
      featureCount: report.featureCount)
    deferred.knownLines = report.knownLines
    deferred.convertedText = report.convertedText
    deferred.unlisted = report.unlisted
    deferred.rejectedByRoadmap = report.rejectedByRoadmap
    return deferred
  }

  /// Where a syntax error stopped the reading with text still after it: a note that nothing
  /// after it was checked (as the app stops there too), so that a fix followed by another run
  /// is expected to find more; nil when the error is at the end.
  static func readingStopped(
    _ issues: [Issue], outcome: ParseOutcome, in buffer: UnsafeBufferPointer<UInt8>
  ) -> Issue? {
    // Not after errors whose stop says itself: a nesting limit, a binary file, a string that
    // swallows the rest, too many errors.
    guard let error = issues.last(where: { $0.severity == .error }),
      Self.stopsWithTextAfter.contains(error.code)
    else { return nil }
    let rest = buffer.dropFirst(min(buffer.count, error.offset + 1))
    guard rest.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
    let features = outcome.featureCount == 1 ? "1 feature" : "\(outcome.featureCount) features"
    return Issue(
      code: "reading-stopped", severity: .info,
      message: "the reading stopped at this error, as the app's does: nothing after it was "
        + "checked (\(features) before it); fix it and run again to see the rest",
      offset: error.offset, path: "", sequence: Int.max)
  }

  /// Syntax errors after which text the reading never reached can follow.
  static let stopsWithTextAfter: Set<String> = [
    "unexpected-character", "mismatched-bracket", "invalid-literal", "unquoted-key",
    "single-quoted-string", "invalid-number", "non-finite-number", "missing-colon",
  ]

  /// The codes of the checks a caller asks for (`--languages`, `--statuses`, `--previous`):
  /// errors in compatible mode too.
  static let requestedChecks: Set<String> = [
    "missing-language", "unknown-status", "removed-id", "previous-unreadable",
  ]

  /// One validation: the parse, the cross-feature rules, positions. Also says whether the
  /// Roadmap package would reject the document.
  private func run(
    _ buffer: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>?,
    keepFeatures: Bool, pages: DocumentBytes? = nil, releaseStride: Int = 4 << 20,
    converted isConverted: Bool = false
  ) -> (report: ValidationReport, rejected: Bool) {
    if !isConverted, let converted = TextEncoding.transcode(buffer), converted.isMisreadUTF32 {
      // Its one problem is its encoding: the rules would only read the U+0000 the app reads
      // first ("not a text file … the byte 0x0"), which the file does not start with.
      var report = ValidationReport(
        diagnostics: [converted.diagnostic], features: [], featureCount: 0)
      report.convertedText = converted.utf8
      report.rejectedByRoadmap = true
      return (report, true)
    }
    if !isConverted, let converted = TextEncoding.transcode(buffer) {
      // UTF-16 or UTF-32, which the app reads: every rule runs on the UTF-8 text it reads
      // (converted once, as JSONDecoder converts).
      var (report, rejected) = converted.utf8.withUnsafeBufferPointer {
        run($0, previous: previous, keepFeatures: keepFeatures, converted: true)
      }
      var diagnostic = converted.diagnostic
      if options.compatible {
        // The app converts it and loads it: under --compatible that is a warning, as a
        // trailing comma is (a misread UTF-32 mark, which it rejects, is handled above).
        diagnostic.severity = .warning
      }
      report.diagnostics.insert(diagnostic, at: 0)
      report.convertedText = converted.utf8
      return (report, rejected)
    }
    if let previous, let converted = TextEncoding.transcode(previous) {
      return converted.utf8.withUnsafeBufferPointer {
        run(
          buffer, previous: $0, keepFeatures: keepFeatures, pages: pages,
          releaseStride: releaseStride)
      }
    }
    var outcome = ParseOutcome.parse(
      buffer, collectWarnings: true, keepValues: keepFeatures, pages: pages,
      releaseStride: releaseStride)
    var issues = outcome.issues
    outcome.issues = []
    if outcome.fatal, let stop = Self.readingStopped(issues, outcome: outcome, in: buffer) {
      issues.append(stop)
    }
    var rules = CrossFeatureRules(options: options, outcome: outcome, buffer: buffer)
    rules.run()
    if let previous {
      rules.compare(withPrevious: previous)
    }
    issues += rules.issues
    for (code, more) in rules.limit.suppressed {
      outcome.suppressed[code, default: (0, more.severity)].count += more.count
    }
    let rejected =
      outcome.fatal || !outcome.topLevelIsArray || issues.contains { $0.rejectedByRoadmap }
    if options.compatible {
      // Judged as the app reads: what it rejects stays an error, and so do the checks the
      // caller asked for; the rest (a trailing comma, a duplicate id, a key no counting API
      // takes) it loads, so they are warnings.
      for index in issues.indices
      where issues[index].severity == .error && !issues[index].rejectedByRoadmap
        && !Self.requestedChecks.contains(issues[index].code)
      {
        issues[index].severity = .warning
      }
    }
    let diagnostics = ParseOutcome.diagnostics(
      issues, suppressed: outcome.suppressed, in: buffer,
      checkpoints: outcome.checkpoints)
    var report = ValidationReport(
      diagnostics: diagnostics,
      features: options.compatible && rejected ? [] : outcome.features,
      featureCount: outcome.featureCount)
    report.rejectedByRoadmap = rejected
    report.knownLines = outcome.checkpoints.map { KnownLine(offset: $0.offset, line: $0.line) }
    for more in outcome.suppressed.values {
      report.unlisted[more.severity, default: 0] += more.count
    }
    return (report, rejected)
  }
}
