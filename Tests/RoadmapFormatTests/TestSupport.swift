import Foundation
import RoadmapFormat
import TestProcess
import Testing

/// Validates a JSON text with the given options.
func validate(_ json: String, options: ValidationOptions = .init(), previous: String? = nil)
  -> ValidationReport
{
  RoadmapValidator(options: options).validate(
    Array(json.utf8), previous: previous.map { Array($0.utf8) })
}

extension ValidationReport {
  /// The codes, in report order.
  var codes: [String] { diagnostics.map(\.code) }

  /// The first diagnostic with `code`.
  func first(_ code: String) -> Diagnostic? {
    diagnostics.first { $0.code == code }
  }

  /// The codes of the errors.
  var errorCodes: [String] { diagnostics.filter { $0.severity == .error }.map(\.code) }
}

/// Expects the compatible reading to accept `bytes` exactly when Foundation's `JSONDecoder`
/// (what the app uses) does, and then to read the same ids, titles and votes.
func expectAgreementWithJSONDecoder(
  _ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  let upstream = upstreamDecodes(bytes)
  let ours = try? RoadmapDocument.read(bytes, mode: .compatible)
  #expect(
    (ours != nil) == (upstream != nil), "ours: \(ours != nil), JSONDecoder: \(upstream != nil)",
    sourceLocation: sourceLocation)
  if let ours, let upstream {
    #expect(ours.features.map(\.id) == upstream.map(\.id), sourceLocation: sourceLocation)
    #expect(ours.features.map(\.votes) == upstream.map(\.votes), sourceLocation: sourceLocation)
    #expect(ours.features.map(\.title) == upstream.map(\.title), sourceLocation: sourceLocation)
  }
}

/// The package root (two levels above this file's folder).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// A small deterministic generator (SplitMix64) for the fuzz-style tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
