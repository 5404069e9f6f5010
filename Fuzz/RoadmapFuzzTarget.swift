// libFuzzer entry point for RoadmapFormat's reader, validator and writer. Not a package target:
// Fuzz/run.sh compiles it together with the module's sources using
// `swiftc -sanitize=fuzzer,address` (`Fuzz/run.sh roadmap`), with the app model's mirror of the
// tests (Tests/TestProcess/UpstreamFeature.swift).

import Foundation

/// `feature` as the app's model holds it.
private func asApp(_ feature: RoadmapFeature) -> UpstreamFeature {
  func items(_ values: [LocalizedValue]?) -> [UpstreamFeature.Localized]? {
    values?.map { UpstreamFeature.Localized(language: $0.language, value: $0.value) }
  }
  return UpstreamFeature(
    id: feature.id, title: feature.title, status: feature.status,
    description: feature.description, isFinished: feature.isFinished, votes: feature.votes,
    localizedTitle: items(feature.localizedTitle),
    localizedStatus: items(feature.localizedStatus),
    localizedDescription: items(feature.localizedDescription))
}

/// Checks one input against the module's promises, trapping where one is broken:
/// - the validator and the lenient reader never trap, and every diagnostic points into the
///   document, at the line and column a plain count of the bytes gives (the parser's line
///   checkpoints are only a shortcut);
/// - the compatible reading accepts exactly what JSONDecoder accepts, with the same fields;
/// - whatever the lenient reading loads, the writer writes as JSON that reads back equal (both
///   styles) and that the app's JSONDecoder reads with the same fields.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))

  let report = RoadmapValidator().validate(bytes)
  // A line ends at LF, at CRLF (once) or at a lone CR.
  let lines =
    1
    + bytes.indices.count {
      bytes[$0] == 0x0A || (bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A))
    }
  precondition(report.featureCount <= bytes.count, "more features than bytes")
  for diagnostic in report.diagnostics {
    precondition(
      (1...lines).contains(diagnostic.line), "line \(diagnostic.line) of \(lines): \(diagnostic)")
    precondition(
      (1...(bytes.count + 1)).contains(diagnostic.column),
      "column \(diagnostic.column) past the document: \(diagnostic)")
  }

  if TextEncoding.detect(UnsafeBufferPointer(start: data, count: size)) == nil {
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let outcome = ParseOutcome.parse(buffer, collectWarnings: true)
    let withCheckpoints = ParseOutcome.diagnostics(
      outcome.issues, suppressed: outcome.suppressed, in: buffer,
      checkpoints: outcome.checkpoints)
    let counted = ParseOutcome.diagnostics(
      outcome.issues, suppressed: outcome.suppressed, in: buffer, checkpoints: [])
    precondition(withCheckpoints == counted, "the checkpoints put a diagnostic on another line")
  }

  var compatible: RoadmapDocument?
  var refusal: String?
  do { compatible = try RoadmapDocument.read(bytes, mode: .compatible) } catch {
    refusal = error.diagnostic.code
  }
  let app = upstreamDecodes(bytes)
  precondition(
    (compatible != nil) == (app != nil),
    "compatible reading \(compatible != nil ? "accepts" : "rejects (\(refusal ?? ""))"), "
      + "JSONDecoder \(app != nil ? "accepts" : "rejects")")
  if let compatible, let app {
    precondition(compatible.features.map(asApp) == app, "fields differ from JSONDecoder's")
  }

  if let lenient = try? RoadmapDocument.read(bytes, mode: .lenient) {
    for style in [RoadmapWriterStyle.pretty, .compact] {
      let written = RoadmapWriter.write(lenient.features, style: style)
      guard let again = try? RoadmapDocument.read(written, mode: .compatible) else {
        preconditionFailure(
          "written JSON does not read back: \(String(decoding: written, as: UTF8.self))")
      }
      precondition(again.features == lenient.features, "written JSON reads back different")
      precondition(
        upstreamDecodes(written) == lenient.features.map(asApp),
        "the app reads the written JSON differently")
    }
  }
  return 0
}
