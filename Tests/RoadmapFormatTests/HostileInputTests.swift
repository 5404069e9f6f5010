import Foundation
import RoadmapFormat
import TestProcess
import Testing

/// No input may crash the reader, hang it, or make it use memory out of proportion.
@Suite("Hostile inputs")
struct HostileInputTests {
  @Test("100,000 opening brackets stop at the nesting limit")
  func deepArrays() {
    let report = RoadmapValidator().validate([UInt8](repeating: UInt8(ascii: "["), count: 100_000))
    #expect(report.codes == ["nesting-too-deep"])
    #expect(throws: RoadmapReadError.self) {
      try RoadmapDocument.read(
        [UInt8](repeating: UInt8(ascii: "["), count: 100_000), mode: .lenient)
    }
  }

  @Test("deep nesting inside an unknown key and deep objects stop at the limit too")
  func deepUnknownValues() {
    let arrays = #"[{"id": "1", "x": "# + String(repeating: "[", count: 100_000)
    #expect(validate(arrays).codes == ["nesting-too-deep"])
    let objects = "[" + String(repeating: #"{"a":"#, count: 100_000)
    #expect(validate(objects).codes == ["nesting-too-deep"])
  }

  @Test("deep but allowed nesting in an unknown key is kept")
  func deepButAllowed() throws {
    let depth = 400
    let json =
      #"[{"id": "1", "x": "# + String(repeating: "[", count: depth)
      + String(repeating: "]", count: depth) + "}]"
    let document = try RoadmapDocument.read(Array(json.utf8), mode: .compatible)
    var value = try #require(document.features.first?.extra["x"])
    var levels = 0
    while case .array(let inner) = value {
      levels += 1
      guard let first = inner.first else { break }
      value = first
    }
    #expect(levels == depth)
  }

  @Test("an 8 MB string loads whole")
  func hugeString() throws {
    let title = String(repeating: "abcdefgh", count: 1_000_000) + "é"
    let json = #"[{"id": "1", "title": ""# + title + #""}]"#
    let document = try RoadmapDocument.read(Array(json.utf8), mode: .compatible)
    #expect(document.features.first?.title?.utf8.count == 8_000_002)
  }

  @Test("an unterminated huge string is one diagnostic")
  func hugeUnterminatedString() {
    let json = #"[{"id": ""# + String(repeating: "x", count: 2_000_000)
    #expect(validate(json).codes == ["unterminated-string"])
  }

  @Test("a file full of invalid UTF-8 reports once per string and stops after the limit")
  func invalidUTF8Flood() {
    var bytes = Array(#"[{"id": "1", "title": ""#.utf8)
    bytes += [UInt8](repeating: 0xFF, count: 100_000)
    bytes += Array(#""}]"#.utf8)
    #expect(RoadmapValidator().validate(bytes).codes == ["invalid-utf8"])
  }

  @Test("many warnings are listed up to a limit, then counted")
  func warningFlood() {
    let json =
      "[" + (0..<3000).map { #"{"id": "\#($0)", "votes": -1}"# }.joined(separator: ",") + "]"
    let report = validate(json)
    #expect(report.diagnostics.filter { $0.code == "negative-votes" }.count == 1000)
    #expect(report.first("diagnostics-truncated")?.message.contains("2000 more") == true)
  }

  @Test("random bytes never crash and give bounded, well-positioned results")
  func randomBytes() {
    var generator = SplitMix64(seed: 20_251_130)
    let alphabet =
      Array(#"[]{}",:\/0123456789-+.eEtrufalsnI "#.utf8) + [0x0A, 0x09, 0xFF, 0xC3, 0xA9]
    for _ in 0..<1500 {
      let length = Int.random(in: 0..<200, using: &generator)
      let bytes = (0..<length).map { _ -> UInt8 in
        Bool.random(using: &generator)
          ? alphabet.randomElement(using: &generator)!
          : UInt8.random(in: 0...255, using: &generator)
      }
      checkBounded(bytes)
    }
  }

  @Test("mutated documents never crash, and the compatible reading agrees with JSONDecoder")
  func mutatedDocuments() {
    var generator = SplitMix64(seed: 7)
    let seed = Array(
      """
      [
        {"id": "1", "title": "Dark mode", "status": "planned", "votes": 12, "isFinished": false,
         "localizedTitle": [{"language": "en", "value": "Dark mode"}, {"language": "de", "value": "Dunkel"}],
         "url": "https://x", "n": [1, 2.5, null, true]},
        {"id": "2", "description": "a\\nb \\u00e9", "localizedStatus": [{"language": "en", "value": "Done"}]}
      ]
      """.utf8)
    let insertions = Array(#"[]{}",:\0123456789-. etnu"#.utf8) + [0x0A, 0x09, 0xFF]
    var disagreements: [String] = []
    for _ in 0..<1500 {
      var bytes = seed
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        guard !bytes.isEmpty else { break }
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes.remove(at: index)
        case 1: bytes.insert(insertions.randomElement(using: &generator)!, at: index)
        default: bytes[index] = insertions.randomElement(using: &generator)!
        }
      }
      checkBounded(bytes)
      let ours = (try? RoadmapDocument.read(bytes, mode: .compatible)) != nil
      let upstream = upstreamDecodes(bytes) != nil
      if ours != upstream && disagreements.count < 5 {
        disagreements.append(
          "ours \(ours), JSONDecoder \(upstream): \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
  }

  func checkBounded(_ bytes: [UInt8]) {
    let report = RoadmapValidator().validate(bytes)
    let lines = bytes.filter { $0 == 0x0A }.count + 1
    #expect(report.diagnostics.count <= bytes.count + 2)
    for diagnostic in report.diagnostics {
      #expect(diagnostic.line >= 1 && diagnostic.line <= lines)
      #expect(diagnostic.column >= 1 && diagnostic.column <= bytes.count + 1)
    }
    #expect(report.featureCount <= bytes.count)
    _ = try? RoadmapDocument.read(bytes, mode: .lenient)
  }
}
