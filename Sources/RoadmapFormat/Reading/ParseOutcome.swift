/// Everything one parse produced, with diagnostics still as byte offsets.
struct ParseOutcome {
  var features: [RoadmapFeature] = []
  var records: [FeatureRecord] = []
  var featureCount = 0
  var topLevelIsArray = false
  var issues: [Issue] = []
  var suppressed: [String: (count: Int, severity: Severity)] = [:]
  /// The parse stopped before the end of the document.
  var fatal = false
  /// Interned languages; bit `i` of a record's mask is `languageNames[i]`.
  var languageNames: [String] = []
  var byteCount = 0

  /// Parses `buffer` as Roadmap JSON.
  static func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, collectWarnings: Bool, keepValues: Bool = true
  ) -> ParseOutcome {
    guard let base = buffer.baseAddress, buffer.count > 0 else {
      var outcome = ParseOutcome()
      outcome.fatal = true
      outcome.issues = [
        Issue(
          code: "empty-document", severity: .error,
          message: "the file is empty; a roadmap with no features is written []", offset: 0,
          path: "", rejectedByRoadmap: true)
      ]
      return outcome
    }
    var parser = RoadmapParser(
      base: base, count: buffer.count, collectWarnings: collectWarnings, keepValues: keepValues)
    parser.parseDocument()
    var outcome = ParseOutcome()
    outcome.features = parser.features
    outcome.records = parser.records
    outcome.featureCount = parser.featureCount
    outcome.topLevelIsArray = parser.topLevelIsArray
    outcome.issues = parser.sink.issues
    outcome.suppressed = parser.sink.suppressed
    outcome.fatal = parser.sink.fatal
    outcome.languageNames = parser.languageNames
    outcome.byteCount = buffer.count
    return outcome
  }

  /// Whether the Roadmap package would reject the document.
  var rejectedByRoadmap: Bool {
    fatal || !topLevelIsArray || issues.contains { $0.rejectedByRoadmap }
  }

  /// The issues as diagnostics sorted by position, plus a note per code that went over the limit.
  static func diagnostics(
    _ issues: [Issue], suppressed: [String: (count: Int, severity: Severity)],
    in buffer: UnsafeBufferPointer<UInt8>
  ) -> [Diagnostic] {
    var offsets: [Int] = []
    offsets.reserveCapacity(issues.count)
    for issue in issues {
      offsets.append(issue.offset)
      for related in issue.related {
        if let offset = related.offset { offsets.append(offset) }
      }
    }
    let locations = LineIndex.locations(of: offsets, in: buffer)
    var next = 0
    var result: [(diagnostic: Diagnostic, sequence: Int)] = []
    result.reserveCapacity(issues.count + suppressed.count)
    for (sequence, issue) in issues.enumerated() {
      let location = locations[next]
      next += 1
      var related: [RelatedLocation] = []
      for item in issue.related {
        var itemLocation = item.location ?? SourceLocation(line: 1, column: 1)
        if item.offset != nil {
          itemLocation = locations[next]
          next += 1
        }
        related.append(
          RelatedLocation(
            message: item.message, path: item.path, line: itemLocation.line,
            column: itemLocation.column))
      }
      result.append(
        (
          Diagnostic(
            code: issue.code, severity: issue.severity, message: issue.message, path: issue.path,
            line: location.line, column: location.column, related: related),
          sequence
        ))
    }
    result.sort {
      ($0.diagnostic.line, $0.diagnostic.column, $0.sequence)
        < ($1.diagnostic.line, $1.diagnostic.column, $1.sequence)
    }
    var diagnostics = result.map(\.diagnostic)
    let end =
      diagnostics.last.map { SourceLocation(line: $0.line, column: $0.column) }
      ?? SourceLocation(line: 1, column: 1)
    for (code, info) in suppressed.sorted(by: { $0.key < $1.key }) {
      diagnostics.append(
        Diagnostic(
          code: "diagnostics-truncated", severity: .info,
          message: "\(info.count) more \(info.severity.rawValue)s [\(code)] not listed "
            + "(only the first \(RoadmapParser.maxPerCode) of each code are)",
          path: "", line: end.line, column: end.column))
    }
    return diagnostics
  }
}
