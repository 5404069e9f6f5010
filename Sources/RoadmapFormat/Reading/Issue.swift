/// A diagnostic before its byte offset is turned into a line and column.
struct Issue: Sendable {
  var code: String
  var severity: Severity
  var message: String
  /// Byte offset in the document.
  var offset: Int
  /// JSON pointer.
  var path: String
  var related: [RelatedIssue] = []
  /// Whether the Roadmap package (JSONDecoder) rejects the whole document for this.
  var rejectedByRoadmap: Bool = false
  /// Order of emission, to keep the sort stable.
  var sequence: Int = 0
}

/// A related place, either in the same document (offset) or already resolved (another file).
struct RelatedIssue: Sendable {
  var message: String
  var path: String
  var offset: Int?
  var location: SourceLocation?
  /// The document `location` is in (`offset` is always in the document being read).
  var document: RelatedLocation.Document = .same
}

/// One component of a JSON pointer while parsing.
enum PathComponent: Sendable {
  case index(Int)
  /// The raw bytes of a key between its quotes, and whether they contain escapes.
  case key(start: Int, end: Int, escaped: Bool)
}

/// Collects the diagnostics of one parse.
final class IssueSink {
  var issues: [Issue] = []
  /// Every syntax error so far.
  var syntaxErrors = 0
  /// The syntax errors that make the app reject the file: the parse stops after
  /// `RoadmapParser.maxSyntaxErrors` of them. The others (inside strings and numbers the app
  /// skips) cannot put the parse out of step, and `maxPerCode` bounds what they keep.
  var rejectingSyntaxErrors = 0
  /// The `trailing-comma` errors among ``syntaxErrors``: a writer drops those commas, so a
  /// value whose only errors they are is written as valid JSON.
  var trailingCommas = 0
  /// The first ``RoadmapParser/maxPerCode`` of each code are listed, the rest counted.
  var limit = PerCodeLimit()
  /// The parse cannot go on.
  var stopped = false
  /// The parse stopped before the end (the document could not be read as a whole).
  var fatal = false
}

/// The limit on the diagnostics of one code: the first ``RoadmapParser/maxPerCode`` are
/// listed, the rest only counted. The parser, the merge of a parallel parse's halves and the
/// rules that need every feature each keep one.
struct PerCodeLimit {
  private var seen: [String: Int] = [:]
  /// Codes whose diagnostics went over the limit, with how many were not listed.
  private(set) var suppressed: [String: (count: Int, severity: Severity)] = [:]

  /// Counts one diagnostic of `code`: true while it is to be listed, false (and counted as
  /// not listed) past the limit.
  mutating func admits(_ code: String, _ severity: Severity) -> Bool {
    let count = seen[code, default: 0]
    seen[code] = count + 1
    if count < RoadmapParser.maxPerCode { return true }
    suppressed[code, default: (0, severity)].count += 1
    return false
  }
}
