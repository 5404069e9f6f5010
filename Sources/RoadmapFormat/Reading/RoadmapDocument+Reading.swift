/// Reading from raw bytes without copying them.
extension RoadmapDocument {
  /// Reads a document from a buffer of UTF-8 bytes.
  ///
  /// - Parameters:
  ///   - buffer: the document.
  ///   - mode: compatible or lenient.
  /// - Throws: `RoadmapReadError` with the position of the problem that stopped the reading.
  public static func read(_ buffer: UnsafeBufferPointer<UInt8>, mode: RoadmapReadingMode)
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
    return RoadmapDocument(features: outcome.features, diagnostics: diagnostics)
  }
}
