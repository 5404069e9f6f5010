import RoadmapFormat

/// The outcome of validating one input, as the output formats need it.
struct ValidatedFile: Sendable {
  /// The path, URL or `<stdin>`, as given.
  var displayPath: String
  /// The bytes that were validated (for source excerpts).
  var document: DocumentBytes
  /// Offsets whose line the reader knew, so excerpts need not count lines from the start.
  var knownLines: [KnownLine] = []
  /// Every diagnostic, sorted by line and column.
  var diagnostics: [Diagnostic]
  /// The number of elements of the top-level array.
  var featureCount: Int
  /// Whether the file passes: no errors, and no warnings under `--strict`.
  var isValid: Bool
  /// How to name the previous version (`--previous`), for related places in it.
  var previousPath: String? = nil
  /// The problems past each code's listing limit, by severity (counted, not listed).
  var unlisted: [Severity: Int] = [:]

  /// A file validated from bytes in memory.
  init(
    displayPath: String, bytes: [UInt8], diagnostics: [Diagnostic], featureCount: Int,
    isValid: Bool
  ) {
    self.init(
      displayPath: displayPath, document: DocumentBytes(bytes), diagnostics: diagnostics,
      featureCount: featureCount, isValid: isValid)
  }

  /// A file validated from `document`.
  init(
    displayPath: String, document: DocumentBytes, knownLines: [KnownLine] = [],
    diagnostics: [Diagnostic], featureCount: Int, isValid: Bool
  ) {
    self.displayPath = displayPath
    self.document = document
    self.knownLines = knownLines
    self.diagnostics = diagnostics
    self.featureCount = featureCount
    self.isValid = isValid
  }

  /// The file a related place is in: this one, or the previous version.
  func path(of related: RelatedLocation) -> String {
    related.document == .previous ? previousPath ?? "<previous>" : displayPath
  }

  /// Every error, listed or not.
  var errorCount: Int { count(.error) }
  /// Every warning, listed or not.
  var warningCount: Int { count(.warning) }
  /// Every note, listed or not, but for the notes that count the unlisted problems.
  var infoCount: Int { count(.info) }

  private func count(_ severity: Severity) -> Int {
    diagnostics.count { $0.severity == severity && $0.code != "diagnostics-truncated" }
      + unlisted[severity, default: 0]
  }

  /// `3 features, 1 error, 2 warnings` or `3 features, no problems`.
  var summary: String {
    var parts = [pluralized(featureCount, "feature")]
    if diagnostics.isEmpty {
      parts.append("no problems")
    } else {
      if errorCount > 0 { parts.append(pluralized(errorCount, "error")) }
      if warningCount > 0 { parts.append(pluralized(warningCount, "warning")) }
      if infoCount > 0 { parts.append(pluralized(infoCount, "note")) }
      let notListed = unlisted.values.reduce(0, +)
      if notListed > 0 { parts.append("\(notListed) of them not listed") }
    }
    return "\(displayPath): " + parts.joined(separator: ", ") + (isValid ? "" : " (invalid)")
  }
}
