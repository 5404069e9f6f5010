import RoadmapFormat

/// One input read for a command: its bytes, how to name it, and any problem with the transport.
struct LoadedInput: Sendable {
  /// How diagnostics name the input: the path as given, the URL, or `<stdin>`.
  var displayPath: String
  /// The body: in an array, or mapped from a large file (`InputLoader.load(_:context:mapping:)`).
  var document: DocumentBytes
  /// A problem found before the JSON is read: an HTTP status other than 200, an HTML page
  /// (errors), a JSON body sent as `text/html` (a warning).
  var transportProblems: [Diagnostic] = []

  /// Loads an input read into memory.
  init(displayPath: String, bytes: [UInt8]) {
    self.init(displayPath: displayPath, document: DocumentBytes(bytes))
  }

  /// Loads an input held in `document`.
  init(displayPath: String, document: DocumentBytes) {
    self.displayPath = displayPath
    self.document = document
  }

  /// The body as an array (a copy only when it is mapped).
  var bytes: [UInt8] { document.bytes }

  /// The transport errors: when there is one, the body is not checked as JSON.
  var transportErrors: [Diagnostic] { transportProblems.filter { $0.severity == .error } }
}
