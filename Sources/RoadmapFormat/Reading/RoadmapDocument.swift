import Foundation

/// A whole Roadmap JSON document, read.
///
/// `compatible` reading accepts exactly what the AvdLee/Roadmap package accepts and throws on
/// the first problem it would reject, with its position. `lenient` reading reports a broken
/// feature and leaves it out; the rest load.
public struct RoadmapDocument: Sendable {
  /// The features, in order.
  public var features: [RoadmapFeature]
  /// What was reported while reading: features left out (lenient), warnings. A `compatible`
  /// reading reports only warnings: what the app loads with (a trailing comma, a duplicate key).
  public var diagnostics: [Diagnostic]

  /// Creates a document.
  ///
  /// - Parameters:
  ///   - features: the features.
  ///   - diagnostics: reports from reading.
  public init(features: [RoadmapFeature], diagnostics: [Diagnostic] = []) {
    self.features = features
    self.diagnostics = diagnostics
  }

  /// Reads a document from UTF-8 bytes.
  ///
  /// - Parameters:
  ///   - bytes: the document.
  ///   - mode: compatible or lenient.
  /// - Throws: `RoadmapReadError` with the position of the problem that stopped the reading.
  public static func read(_ bytes: [UInt8], mode: RoadmapReadingMode) throws(RoadmapReadError)
    -> RoadmapDocument
  {
    try bytes.withUnsafeBufferPointer { buffer throws(RoadmapReadError) in
      try read(buffer, mode: mode)
    }
  }

  /// Reads a document from UTF-8 data.
  ///
  /// - Parameters:
  ///   - data: the document.
  ///   - mode: compatible or lenient.
  /// - Throws: `RoadmapReadError` with the position of the problem that stopped the reading.
  public static func read(_ data: Data, mode: RoadmapReadingMode) throws(RoadmapReadError)
    -> RoadmapDocument
  {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(RoadmapReadError) in
        try read(raw.bindMemory(to: UInt8.self), mode: mode)
      }
    }
    return try result.get()
  }
}
