import Foundation
import RoadmapFormat
import TestProcess
import Testing

/// The two readings: compatible (exactly the Roadmap package) and lenient.
@Suite("Reading modes")
struct ReadingModeTests {
  static let mixed = """
    [
      {"id": "1", "title": "Good"},
      {"id": 2, "title": "Numeric id"},
      {"id": "3", "isFinished": "true"},
      {"id": "4", "title": "Also good", "url": "https://example.com", "date": "2025-01-01"}
    ]
    """

  @Test("compatible reading throws the first problem the app rejects, with its position")
  func compatibleThrowsFirst() throws {
    let error = #expect(throws: RoadmapReadError.self) {
      try RoadmapDocument.read(Array(Self.mixed.utf8), mode: .compatible)
    }
    let diagnostic = try #require(error?.diagnostic)
    #expect(diagnostic.code == "id-not-string")
    #expect(diagnostic.line == 3)
    #expect(diagnostic.column == 10)
    #expect(error?.description.hasPrefix("3:10: ") == true)
  }

  @Test("lenient reading leaves broken features out and loads the rest")
  func lenientLeavesOut() throws {
    let document = try RoadmapDocument.read(Array(Self.mixed.utf8), mode: .lenient)
    #expect(document.features.map(\.id) == ["1", "4"])
    #expect(document.diagnostics.map(\.code) == ["id-not-string", "wrong-type"])
    #expect(document.features[1].extra.keys == ["url", "date"])
  }

  @Test("compatible reading accepts what JSONDecoder accepts: trailing comma, BOM, duplicate keys")
  func compatibleAcceptsWhatDecoderAccepts() throws {
    let json = [0xEF, 0xBB, 0xBF] + Array(#"[{"id": "1", "id": "2", "title": "a",},]"#.utf8)
    let document = try RoadmapDocument.read(json, mode: .compatible)
    #expect(document.features.map(\.id) == ["1"])
    #expect(
      Set(document.diagnostics.map(\.code)) == [
        "byte-order-mark", "trailing-comma", "duplicate-key",
      ])
    // What the app loads with is a warning there, as `validate --compatible` says.
    #expect(document.diagnostics.allSatisfy { $0.severity != .error })
    #expect(
      document.diagnostics.contains { $0.code == "trailing-comma" && $0.severity == .warning })
  }

  @Test("compatible reading rejects a missing comma at its line")
  func compatibleRejectsMissingComma() throws {
    let json = "[\n  {\"id\": \"1\"}\n  {\"id\": \"2\"}\n]"
    let error = #expect(throws: RoadmapReadError.self) {
      try RoadmapDocument.read(Array(json.utf8), mode: .compatible)
    }
    #expect(error?.diagnostic.code == "missing-comma")
    #expect(error?.diagnostic.line == 2)
    // Lenient reading repairs the obvious comma.
    #expect(try RoadmapDocument.read(Array(json.utf8), mode: .lenient).features.count == 2)
  }

  @Test(
    "lenient reading throws when the document cannot be read as a whole",
    arguments: [
      "", "{}", "[{\"id\": \"1\"}", "[{\"id\": \"1\"}] x", "\"roadmap\"",
    ])
  func lenientThrowsOnBrokenDocument(_ json: String) {
    #expect(throws: RoadmapReadError.self) {
      try RoadmapDocument.read(Array(json.utf8), mode: .lenient)
    }
  }

  @Test("a string with a bad escape leaves its feature out in lenient reading")
  func corruptStringLeavesFeatureOut() throws {
    let document = try RoadmapDocument.read(
      Array(#"[{"id": "1", "title": "a\qb"}, {"id": "2"}]"#.utf8), mode: .lenient)
    #expect(document.features.map(\.id) == ["2"])
  }

  @Test("reading from Data gives the same result")
  func readsData() throws {
    let json = #"[{"id": "1", "title": "Ünïcödé 👍🏽", "votes": 5}]"#
    let fromData = try RoadmapDocument.read(Data(json.utf8), mode: .compatible)
    let fromBytes = try RoadmapDocument.read(Array(json.utf8), mode: .compatible)
    #expect(fromData.features == fromBytes.features)
    #expect(fromData.features.first?.title == "Ünïcödé 👍🏽")
  }

  @Test("escapes decode to the right text")
  func escapes() throws {
    let json = #"[{"id": "1", "title": "q\"b\\s\/n\nt\tu\u00e9e\ud83d\ude80"}]"#
    let document = try RoadmapDocument.read(Array(json.utf8), mode: .compatible)
    #expect(document.features.first?.title == "q\"b\\s/n\nt\tuée🚀")
  }

  @Test("unknown keys keep their values, order and number text")
  func unknownKeys() throws {
    let json = #"[{"z": 1.50, "id": "1", "a": {"y": [true, null, "s"], "b": -0.0e+3}}]"#
    let feature = try #require(
      try RoadmapDocument.read(Array(json.utf8), mode: .compatible).features.first)
    #expect(feature.extra.keys == ["z", "a"])
    #expect(feature.extra["z"] == .number("1.50"))
    #expect(
      feature.extra["a"]
        == .object(
          JSONObject([
            ("y", .array([.bool(true), .null, .string("s")])), ("b", .number("-0.0e+3")),
          ])))
  }

  /// Inputs on which our compatible reading must agree with Foundation's JSONDecoder.
  static let decoderCases: [String] = [
    #"[]"#, #"[{"id": "1"}]"#, #"[{"id": 1}]"#, #"[{"id": null}]"#, #"[{}]"#, #"{}"#, #"[1]"#,
    #"[{"id": "1", "title": 3}]"#, #"[{"id": "1", "votes": 3.0}]"#, #"[{"id": "1", "votes": 3.5}]"#,
    #"[{"id": "1", "votes": "3"}]"#, #"[{"id": "1", "votes": 99999999999999999999}]"#,
    #"[{"id": "1", "votes": -5}]"#, #"[{"id": "1", "isFinished": "true"}]"#,
    #"[{"id": "1", "isFinished": 1}]"#, #"[{"id": "1", "localizedTitle": {"en": "x"}}]"#,
    #"[{"id": "1", "localizedTitle": [{"language": "en"}]}]"#,
    #"[{"id": "1", "localizedTitle": [{"language": "en", "value": null}]}]"#,
    #"[{"id": "1", "localizedTitle": [{"language": "en", "value": "x", "extra": 1}]}]"#,
    #"[{"id": "1", "localizedTitle": null}]"#, #"[{"id": "1"},]"#, #"[{"id": "1",}]"#,
    #"[{"id": "1"} {"id": "2"}]"#, #"[{"id": "1", "id": 2}]"#, #"[{"id": "\ud800"}]"#,
    "[{\"id\": \"a\tb\"}]", #"[{"id": "1"}] x"#, #"[{"id": "1"}"#, "", "  ",
    #"[{"id": "1", "x": NaN}]"#,
    #"[{"id": "1", "x": 01}]"#, "[{\"id\": \"1\"} // c\n]", #"[{"id": "1", "url": "https://x"}]"#,
    #"[{"id": "1", "votes": 01}]"#, #"[{"id": "1", "x": 1.}]"#, #"[{"id": "1", "x": +1}]"#,
    #"[{"id": "1", "x": -}]"#, #"[{"id": "1", "votes": 1.}]"#, #"[{"id": "1", "votes": 1e19}]"#,
    #"[{"id": "1", "votes": -9223372036854775808}]"#, #"[{"id": "1", "votes": 2.5e1}]"#,
    #"[{"id": "1", "x": "\q"}]"#, #"[{"id": "1", "title": "\q"}]"#,
    #"[{"id": "1", "x": "\ud800"}]"#,
    "[{\"id\": \"1\", \"x\": \"a\tb\"}]", "[{\"id\": \"1\", \"title\": \"a\tb\"}]",
    #"[{"id": "1", "title": "a", "title": "\q"}]"#, #"[{"id": "1", "x": True}]"#,
    #"[{"id": "1", "localizedTitle": [{"language": "en", "value": "x", "o": "\q"}]}]"#,
    "[{\"id\": \"1\", \"x\": [1,]}]", "[{\"id\": \"1\"}] ,", #"[{"id": "1", "x": 'a'}]"#,
    #"[{"id": "\u00e9", "title": "\ud83d\ude80"}]"#,
  ]

  @Test(
    "compatible reading accepts exactly what JSONDecoder accepts (byte inputs too)",
    arguments: decoderCases.map { Array($0.utf8) } + [
      Array(#"[{"id": "1", "x": ""#.utf8) + [0xFF] + Array(#""}]"#.utf8),
      Array(#"[{"id": ""#.utf8) + [0xFF] + Array(#""}]"#.utf8),
      Array(#"[{"id": "1", "x"#.utf8) + [0xFF] + Array(#"": 1}]"#.utf8),
      // Invalid UTF-8 inside an unknown key's value, which JSONDecoder skips without decoding.
      Array(#"[{"id": "1", "n": [{""#.utf8) + [0xFF] + Array(#"": 1}]}]"#.utf8),
      Array(#"[{"id": "1", "n": {""#.utf8) + [0xFF] + Array(#"": 1}}]"#.utf8),
      Array(#"[{"id": "1", "n": [""#.utf8) + [0xFF] + Array(#""]}]"#.utf8),
      // UTF-16 and UTF-32, with and without a byte-order mark.
      [0x5B, 0x00, 0x5D, 0x00], [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00], [0x00, 0x5B, 0x00, 0x5D],
      [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x5D], [0x5B, 0, 0, 0, 0x5D, 0, 0, 0],
      Array(#"[{"id": "1"}]"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
    ])
  func agreesWithJSONDecoder(_ bytes: [UInt8]) {
    expectAgreementWithJSONDecoder(bytes)
  }

  /// Bug: from 2^53 on JSONDecoder reads a number with a fraction or an exponent as a
  /// `Decimal` whose mantissa must fit in 64 bits, dropping the fraction; ours read a `Double`,
  /// so it accepted `4611686018427387904.5` (which the app rejects) and read
  /// `9007199254740993.0` as 9007199254740992 (the app: 9007199254740993).
  @Test(
    "votes with a fraction or an exponent read as JSONDecoder reads them",
    arguments: [
      "4611686018427387904.5", "4611686018427387903.5", "9007199254740993.5", "9007199254740993.0",
      "9007199254740993.0000", "9007199254740991.5", "123456789012345678.9",
      "1000000000000000000.5", "-9223372036854775808.0", "-9223372036854775807.0",
      "9223372036854775807.0", "18446744073709551615e-1", "18446744073709551616e-1",
      "92233720368547758070e-1", "9.2e18", "-9.2e18", "9.3e18", "1e18",
      "0.0000000000000000000000000000000000000000001e60",
      "90071992547409930000000000000000000000000.5e-25", "4503599627370495.5", "2.5", "3.0",
      "1.00000000000000000001", "1e-400", "-0.0",
    ])
  func numbersAgreeWithJSONDecoder(_ number: String) {
    expectAgreementWithJSONDecoder(Array(#"[{"id": "1", "votes": \#(number)}]"#.utf8))
  }

  /// The same over numbers drawn at random, most of them past 2^53.
  @Test func randomNumbersAgreeWithJSONDecoder() {
    var generator = SplitMix64(seed: 20_261_205)
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }
    for _ in 0..<3_000 {
      var number = String(Int.random(in: 1...9, using: &generator))
      number += digits(Int.random(in: 0...19, using: &generator))
      if Bool.random(using: &generator) {
        number += "." + digits(Int.random(in: 1...24, using: &generator))
      }
      if Int.random(in: 0..<3, using: &generator) == 0 {
        number += ["e", "E-", "e+"].randomElement(using: &generator)!
        number += String(Int.random(in: 0...20, using: &generator))
      }
      if Bool.random(using: &generator) { number = "-" + number }
      expectAgreementWithJSONDecoder(Array(#"[{"id": "1", "votes": \#(number)}]"#.utf8))
    }
  }

  /// Bug: decoding `RoadmapFeature` with JSONDecoder (as an app using this module does) failed
  /// the whole list when an unknown key held a value JSONDecoder cannot represent, which the
  /// Roadmap package never reads and so loads fine: that member is left out instead.
  @Test(
    "Codable decodes what the Roadmap package decodes, whatever an unknown key holds",
    arguments: [
      #"[{"id": "1", "x": 1E400, "y": 2}]"#, #"[{"id": "1", "x": "\ud800", "y": 2}]"#,
      #"[{"id": "1", "x": "\q", "y": 2}]"#, #"[{"id": "1", "x": [1, 1e999], "y": 2}]"#,
      #"[{"id": "1", "localizedTitle": [{"language": "en", "value": "v", "x": -1e400, "y": 2}]}]"#,
    ])
  func codableDecodesWhatTheAppDecodes(_ json: String) throws {
    #expect(upstreamDecodes(Array(json.utf8)) != nil)
    let features = try JSONDecoder().decode([RoadmapFeature].self, from: Data(json.utf8))
    let extra = features[0].localizedTitle?.first?.extra ?? features[0].extra
    #expect(extra.keys == ["y"])
    #expect(extra["y"] == .number("2"))
  }

  @Test("Codable through JSONEncoder and JSONDecoder keeps every field and unknown keys")
  func codableRoundTrip() throws {
    let feature = RoadmapFeature(
      id: "1", title: "T", status: "planned", description: "D",
      localizedTitle: [LocalizedValue(language: "de", value: "Titel")], localizedStatus: [],
      localizedDescription: nil, votes: 4, isFinished: false,
      extra: JSONObject([("url", .string("https://x")), ("n", .number("2"))]))
    let data = try JSONEncoder().encode([feature])
    let decoded = try JSONDecoder().decode([RoadmapFeature].self, from: data)
    #expect(decoded.count == 1)
    var expected = feature
    expected.extra = JSONObject()
    var actual = decoded[0]
    let extra = actual.extra
    actual.extra = JSONObject()
    #expect(actual == expected)
    #expect(Set(extra.keys) == ["url", "n"])
    #expect(extra["url"] == .string("https://x"))
    #expect(extra["n"] == .number("2"))
  }

  @Test(
    "escaped item keys in localized arrays are language and value, as JSONDecoder reads them",
    arguments: [RoadmapReadingMode.compatible, .lenient])
  func escapedLocalizedItemKeys(mode: RoadmapReadingMode) throws {
    let json = #"""
      [{"id": "1", "localizedTitle": [{"lang\u0075age": "en", "v\u0061lue": "Dark mode"}],
        "localizedStatus": [{"\u006canguage": "de", "value": "Geplant"}]}]
      """#
    let bytes = Array(json.utf8)
    let upstream = try #require(upstreamDecodes(bytes))
    #expect(upstream.first?.localizedTitle?.first?.language == "en")
    let document = try RoadmapDocument.read(bytes, mode: mode)
    let feature = try #require(document.features.first)
    #expect(feature.localizedTitle == [LocalizedValue(language: "en", value: "Dark mode")])
    #expect(feature.localizedStatus == [LocalizedValue(language: "de", value: "Geplant")])
    #expect(!document.diagnostics.contains { $0.severity == .error }, "\(document.diagnostics)")
  }
}
