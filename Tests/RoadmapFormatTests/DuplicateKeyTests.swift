import Foundation
import RoadmapFormat
import Testing

/// Which keys of an object are the same key: the same string once decoded, whatever their
/// bytes, found in one pass however many keys the object has. Found by `Fuzz/run.sh roadmap`:
/// two keys whose invalid bytes both read as U+FFFD were kept as two, so the written JSON had
/// one key twice and read back with one member less.
@Suite struct DuplicateKeyTests {
  /// `text` as bytes, with every `«XX»` replaced by the byte 0xXX (for bytes that are not UTF-8).
  static func bytes(_ text: String) -> [UInt8] {
    var result: [UInt8] = []
    var rest = Substring(text)
    while let open = rest.range(of: "«") {
      result += Array(rest[..<open.lowerBound].utf8)
      let after = rest[open.upperBound...]
      guard let close = after.range(of: "»"),
        let byte = UInt8(after[..<close.lowerBound], radix: 16)
      else { break }
      result.append(byte)
      rest = after[close.upperBound...]
    }
    return result + Array(rest.utf8)
  }

  /// Writes what was read, and expects it to read back the same, as the app reads it (the
  /// broken bytes inside an unknown value are written as they were, and the app skips them),
  /// and to write again the same.
  static func expectRoundTrip(_ document: RoadmapDocument) throws {
    for style in [RoadmapWriterStyle.pretty, .compact] {
      let written = RoadmapWriter.write(document.features, style: style)
      let again = try RoadmapDocument.read(written, mode: .compatible)
      #expect(again.features == document.features)
      #expect(RoadmapWriter.write(again.features, style: style) == written)
    }
  }

  @Test("keys whose bytes differ but read as the same string are one key")
  func replacedBytesMakeOneKey() throws {
    // 0xAE and 0xAF are each one invalid byte, both read as U+FFFD.
    let text =
      #"[{"id": "1", "k«AE»": 1, "k«AF»": 2, "meta": {"m«AE»": 1, "m«AF»": 2}, "#
      + #""localizedTitle": [{"language": "en", "value": "a", "v«AE»": 1, "v«AF»": 2}]}]"#
    let document = try RoadmapDocument.read(Self.bytes(text), mode: .lenient)
    let duplicates = document.diagnostics.filter { $0.code == "duplicate-key" }
    // (Columns count characters: a stray continuation byte such as 0xAE starts none.)
    #expect(duplicates.map(\.column) == [22, 47, 116], "\(duplicates)")
    #expect(duplicates.map { $0.related.map(\.column) } == [[14], [39], [108]])
    let feature = try #require(document.features.first)
    #expect(feature.extra.members.map(\.key) == ["k\u{FFFD}", "meta"])
    #expect(feature.extra["k\u{FFFD}"] == .number("1"))
    #expect(feature.extra["meta"] == .object(JSONObject([("m\u{FFFD}", .number("1"))])))
    try Self.expectRoundTrip(document)
  }

  @Test("canonically equivalent keys with other bytes are two keys, escaped or not")
  func equivalentKeysStayTwo() throws {
    // U+00E9 and e + U+0301 are one string to Swift's ==, but two keys: the app ignores keys
    // it does not know, and dropping one would lose its value.
    for text in [
      #"[{"id": "1", "\u00e9": 1, "e\u0301": 2}]"#,
      "[{\"id\": \"1\", \"\u{E9}\": 1, \"e\u{301}\": 2}]",
    ] {
      let document = try RoadmapDocument.read(Array(text.utf8), mode: .lenient)
      #expect(!document.diagnostics.contains { $0.code == "duplicate-key" }, "\(text)")
      let members = try #require(document.features.first?.extra.members)
      #expect(members.map { Array($0.key.utf8) } == [[0xC3, 0xA9], [0x65, 0xCC, 0x81]])
      try Self.expectRoundTrip(document)
    }
  }

  @Test("a large object finds its duplicates, spelled alike or not, and names the first")
  func largeObjects() throws {
    // Past ObjectKeys.tableFrom (16) keys the duplicates are looked up in a table.
    let many = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
    let text =
      #"[{"id": "1", \#(many), "k\u0033": "dup", "k7": "dup", "x«AE»": 1, "x«AF»": 2, "#
      + #""meta": {\#(many), "k3\u0030": "dup"}}]"#
    let document = try RoadmapDocument.read(Self.bytes(text), mode: .lenient)
    let duplicates = document.diagnostics.filter { $0.code == "duplicate-key" }
    #expect(duplicates.count == 4, "\(duplicates)")
    let firsts = duplicates.flatMap(\.related).map(\.message)
    #expect(
      firsts == [
        #"first "k3" here"#, #"first "k7" here"#, "first \"x\u{FFFD}\" here", #"first "k30" here"#,
      ])
    let feature = try #require(document.features.first)
    #expect(feature.extra.members.count == 42)
    #expect(feature.extra["k3"] == .number("3"))
    #expect(feature.extra["k7"] == .number("7"))
    guard case .object(let meta)? = feature.extra["meta"] else {
      Issue.record("meta is not an object")
      return
    }
    #expect(meta.members.count == 40)
    #expect(meta["k30"] == .number("30"))
    try Self.expectRoundTrip(document)
  }

  @Test("an object of 20,000 distinct keys has no duplicate")
  func manyDistinctKeys() throws {
    let keys = (0..<20_000).map { #""key\#($0)": 1"# }.joined(separator: ", ")
    let document = try RoadmapDocument.read(
      Array(#"[{"id": "1", "meta": {\#(keys)}, \#(keys)}]"#.utf8), mode: .lenient)
    #expect(document.diagnostics.isEmpty)
    #expect(document.features.first?.extra.members.count == 20_001)
  }
}
