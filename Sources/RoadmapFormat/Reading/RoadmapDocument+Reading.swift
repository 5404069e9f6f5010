/// Reading from raw bytes without copying them.
extension RoadmapDocument {
  /// Reads a document from a buffer of UTF-8 bytes (or UTF-16 or UTF-32, which the Roadmap
  /// package's JSONDecoder reads too: then the document's first diagnostic says so).
  ///
  /// - Parameters:
  ///   - buffer: the document.
  ///   - mode: compatible or lenient.
  /// - Throws: `RoadmapReadError` with the position of the problem that stopped the reading.
  public static func read(_ buffer: UnsafeBufferPointer<UInt8>, mode: RoadmapReadingMode)
    throws(RoadmapReadError) -> RoadmapDocument
  {
    if let converted = TextEncoding.transcode(buffer) {
      // UTF-16 or UTF-32: read as the app reads it, converted to UTF-8 (positions are in the
      // converted text, whose lines are the file's).
      // Converted once, as JSONDecoder converts: text that would convert again (a UTF-32
      // file whose mark reads as UTF-16's) is read as it is, and rejected as the app does.
      var document = try converted.utf8.withUnsafeBufferPointer {
        buffer throws(RoadmapReadError) in try readUTF8(buffer, mode: mode)
      }
      document.diagnostics.insert(converted.diagnostic, at: 0)
      return document
    }
    return try readUTF8(buffer, mode: mode)
  }

  /// ``read(_:mode:)`` of text taken as UTF-8, whatever its first bytes look like.
  private static func readUTF8(_ buffer: UnsafeBufferPointer<UInt8>, mode: RoadmapReadingMode)
    throws(RoadmapReadError) -> RoadmapDocument
  {
    let outcome = ParseOutcome.parse(buffer, collectWarnings: true)
    let diagnostics = ParseOutcome.diagnostics(
      outcome.issues, suppressed: outcome.suppressed, in: buffer,
      checkpoints: outcome.checkpoints)
    let stopping: Diagnostic?
    switch mode {
    case .compatible:
      // The first problem the Roadmap package (JSONDecoder) rejects, by position.
      stopping = zip(outcome.issues, outcome.issues.indices)
        .filter { $0.0.rejectedByRoadmap }
        .min { ($0.0.offset, $0.0.sequence) < ($1.0.offset, $1.0.sequence) }
        .map { pair in
          diagnostics.first {
            $0.code == pair.0.code && $0.message == pair.0.message && $0.path == pair.0.path
          }!
        }
    case .lenient:
      if outcome.fatal || !outcome.topLevelIsArray {
        stopping =
          diagnostics.first { $0.code == "not-an-array" }
          ?? diagnostics.last { $0.severity == .error }
      } else {
        stopping = nil
      }
    }
    if let stopping {
      throw RoadmapReadError(diagnostic: stopping)
    }
    var reported = diagnostics
    if mode == .compatible {
      // Nothing the app rejects is left: what remains (a trailing comma, a duplicate key) it
      // loads with, so it is a warning, as `validate --compatible` says.
      for index in reported.indices where reported[index].severity == .error {
        reported[index].severity = .warning
      }
    }
    return RoadmapDocument(features: outcome.features, diagnostics: reported)
  }

  /// The UTF-8 text that the positions of a UTF-16 or UTF-32 document's diagnostics refer to
  /// (the document converted as the app's JSONDecoder converts it; its lines are the
  /// document's), or nil when they refer to `bytes` themselves.
  public static func convertedText(of bytes: [UInt8]) -> [UInt8]? {
    bytes.withUnsafeBufferPointer { TextEncoding.transcode($0)?.utf8 }
  }
}
