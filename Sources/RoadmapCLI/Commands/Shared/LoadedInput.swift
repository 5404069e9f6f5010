import RoadmapFormat

/// One input read for a command: its bytes, how to name it, and any problem with the transport.
struct LoadedInput: Sendable {
  /// How diagnostics name the input: the path as given, the URL, or `<stdin>`.
  var displayPath: String
  /// The body.
  var bytes: [UInt8]
  /// A problem found before the JSON is read: an HTTP status other than 200, an HTML page
  /// (errors), a JSON body sent as `text/html` (a warning).
  var transportProblems: [Diagnostic] = []

  /// The transport errors: when there is one, the body is not checked as JSON.
  var transportErrors: [Diagnostic] { transportProblems.filter { $0.severity == .error } }
}
