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
  var perCode: [String: Int] = [:]
  /// Codes whose diagnostics went over the per-code limit, with how many were not listed.
  var suppressed: [String: (count: Int, severity: Severity)] = [:]
  /// The parse cannot go on.
  var stopped = false
  /// The parse stopped before the end (the document could not be read as a whole).
  var fatal = false
}
