import Foundation

/// Everything `RoadmapValidator` found in one document.
///
/// Validation itself builds no feature values (every rule works on offsets into the bytes),
/// so `features` is read from the document the first time it is asked for; a report of a
/// large file that only needs its diagnostics costs no model at all.
public struct ValidationReport: Sendable {
  /// Every problem, sorted by line, then column.
  public var diagnostics: [Diagnostic]
  /// The number of elements of the top-level array (0 if it is not an array).
  public var featureCount: Int
  /// Offsets whose line the reader knew (one per top-level feature, in offset order), for
  /// finding a diagnostic's line in the document without counting every line before it.
  public var knownLines: [KnownLine] = []
  /// The UTF-8 text the positions refer to when the document was UTF-16 or UTF-32 (converted
  /// as the app's JSONDecoder converts it; its lines are the document's); nil when they refer
  /// to the document's own bytes.
  public var convertedText: [UInt8]?
  /// The problems past the listing limit of their code, by severity: counted here, each code's
  /// count named by one `diagnostics-truncated` note, not listed one by one.
  public var unlisted: [Severity: Int] = [:]
  /// Whether the Roadmap package would reject the whole document (its decoder throws).
  public var rejectedByRoadmap = false
  private var storage: FeatureStorage

  /// The features that loaded (lenient reading; empty in compatible mode when the Roadmap
  /// package would reject the file). Read from the document on each access unless set.
  public var features: [RoadmapFeature] {
    get { storage.features }
    set { storage = .loaded(newValue) }
  }

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - diagnostics: the problems, sorted by position.
  ///   - features: the features that loaded.
  ///   - featureCount: elements of the top-level array.
  public init(diagnostics: [Diagnostic], features: [RoadmapFeature], featureCount: Int) {
    self.diagnostics = diagnostics
    self.featureCount = featureCount
    self.storage = .loaded(features)
  }

  init(diagnostics: [Diagnostic], storage: FeatureStorage, featureCount: Int) {
    self.diagnostics = diagnostics
    self.featureCount = featureCount
    self.storage = storage
  }

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// Whether any diagnostic is a warning.
  public var hasWarnings: Bool { diagnostics.contains { $0.severity == .warning } }
}

/// Where a report's features come from: already built, or read from the document on demand.
enum FeatureStorage: Sendable {
  case loaded([RoadmapFeature])
  case bytes([UInt8])
  case data(Data)
  case document(DocumentBytes)

  var features: [RoadmapFeature] {
    switch self {
    case .loaded(let features):
      return features
    case .bytes(let bytes):
      return bytes.withUnsafeBufferPointer(Self.read)
    case .data(let data):
      return data.withUnsafeBytes { Self.read($0.bindMemory(to: UInt8.self)) }
    case .document(let document):
      return document.withUnsafeBytes(Self.read)
    }
  }

  static func read(_ buffer: UnsafeBufferPointer<UInt8>) -> [RoadmapFeature] {
    if let converted = TextEncoding.transcode(buffer) {
      // Converted once, as JSONDecoder converts.
      return converted.utf8.withUnsafeBufferPointer {
        ParseOutcome.parse($0, collectWarnings: false, keepValues: true).features
      }
    }
    return ParseOutcome.parse(buffer, collectWarnings: false, keepValues: true).features
  }
}
