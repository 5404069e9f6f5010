import Foundation
import RoadmapFormat
import TestProcess
import Testing

/// The canonical writer and the JSON Schema.
@Suite("Writer and schema")
struct RoadmapWriterTests {
  static let feature = RoadmapFeature(
    id: "1", title: "Widgets", status: "planned",
    description: "Line\nbreak \"quoted\" \\ tab\t\u{1}",
    localizedTitle: [LocalizedValue(language: "de", value: "Widgets ü 🚀")], localizedStatus: nil,
    localizedDescription: [], votes: -2, isFinished: true,
    extra: JSONObject([
      ("url", .string("https://example.com/a/b")), ("n", .number("1.50")),
      (
        "nested",
        .object(JSONObject([("a", .array([.null, .bool(false)])), ("e", .object(JSONObject()))]))
      ),
    ]))

  @Test("pretty output is canonical: key order, two spaces, escapes, a final newline")
  func prettyOutput() {
    let text = String(decoding: RoadmapWriter.write([Self.feature]), as: UTF8.self)
    let expected = """
      [
        {
          "id": "1",
          "title": "Widgets",
          "status": "planned",
          "description": "Line\\nbreak \\"quoted\\" \\\\ tab\\t\\u0001",
          "isFinished": true,
          "votes": -2,
          "localizedTitle": [
            {
              "language": "de",
              "value": "Widgets ü 🚀"
            }
          ],
          "localizedDescription": [],
          "url": "https://example.com/a/b",
          "n": 1.50,
          "nested": {
            "a": [
              null,
              false
            ],
            "e": {}
          }
        }
      ]

      """
    #expect(text == expected)
  }

  @Test("compact output has no whitespace")
  func compactOutput() {
    let text = String(
      decoding: RoadmapWriter.write(
        [RoadmapFeature(id: "1", title: "A b", votes: 3)], style: .compact),
      as: UTF8.self)
    #expect(text == #"[{"id":"1","title":"A b","votes":3}]"#)
    #expect(String(decoding: RoadmapWriter.write([], style: .compact), as: UTF8.self) == "[]")
    #expect(String(decoding: RoadmapWriter.write([]), as: UTF8.self) == "[]\n")
  }

  @Test(
    "read, write, read gives equal features, unknown keys included",
    arguments: [RoadmapWriterStyle.pretty, .compact])
  func roundTrip(_ style: RoadmapWriterStyle) throws {
    let source = """
      [{"z": [1, {"k": "v"}], "id": "a\\u00e9", "votes": 7, "title": "T\\ud83d\\ude80",
        "localizedStatus": [{"language": "en", "note": ["x", 1], "value": "Done", "by": null}],
        "isFinished": false,
        "date": "2025-01-01", "weird key \\"q\\"": -0.5e-3}]
      """
    let first = try RoadmapDocument.read(Array(source.utf8), mode: .compatible)
    let written = RoadmapWriter.write(first.features, style: style)
    let second = try RoadmapDocument.read(written, mode: .compatible)
    #expect(second.features == first.features)
    #expect(second.diagnostics.isEmpty)
    #expect(first.features[0].extra.keys == ["z", "date", "weird key \"q\""])
    // An item's own unknown keys stay with it, in order, after language and value.
    #expect(first.features[0].localizedStatus?.first?.extra.keys == ["note", "by"])
    // Writing again is byte-identical: the output is canonical.
    #expect(RoadmapWriter.write(second.features, style: style) == written)
  }

  @Test("an item's unknown keys go through Codable too, and its own fields are never written twice")
  func localizedItemExtraThroughCodable() throws {
    let text = #"{"id":"1","localizedTitle":[{"language":"de","value":"Karten","note":"kurz"}]}"#
    let decoded = try JSONDecoder().decode(RoadmapFeature.self, from: Data(text.utf8))
    let item = try #require(decoded.localizedTitle?.first)
    #expect(item.extra["note"] == .string("kurz"))
    let encoded = try JSONEncoder().encode(decoded)
    #expect(try JSONDecoder().decode(RoadmapFeature.self, from: encoded) == decoded)
    // Built in code: a member named like the item's fields is not written; the field is.
    let built = LocalizedValue(
      language: "de", value: "Karten",
      extra: JSONObject([("value", .string("other")), ("note", .bool(true))]))
    let written = RoadmapWriter.write(
      [RoadmapFeature(id: "1", localizedTitle: [built])], style: .compact)
    #expect(
      String(decoding: written, as: UTF8.self)
        == #"[{"id":"1","localizedTitle":[{"language":"de","value":"Karten","note":true}]}]"#)
    let viaCodable = try JSONSerialization.jsonObject(with: JSONEncoder().encode(built))
    #expect((viaCodable as? [String: Any])?["value"] as? String == "Karten")
  }

  @Test("written output is valid JSON for JSONSerialization and JSONDecoder")
  func foreignReaders() throws {
    let bytes = RoadmapWriter.write([Self.feature])
    #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [Any])
    let upstream = try #require(upstreamDecodes(bytes))
    #expect(upstream.first?.description == Self.feature.description)
  }

  @Test("numbers built in code that JSON cannot hold are written as strings; the output reads")
  func numbersBuiltInCode() throws {
    let texts = ["0", "-0", "1.50", "1e3", "-2.5E-7", "123456789012345678901234567890"]
    let wrong = ["007", "abc", "", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "0x10", "1 2"]
    let extra = JSONObject(
      (texts + wrong).enumerated().map { ("k\($0.offset)", JSONValue.number($0.element)) })
    let feature = RoadmapFeature(id: "1", extra: extra)
    for style in [RoadmapWriterStyle.pretty, .compact] {
      let written = RoadmapWriter.write([feature], style: style)
      let read = try RoadmapDocument.read(written, mode: .compatible)
      #expect(read.diagnostics.isEmpty)
      let values = try #require(read.features.first).extra.members.map(\.value)
      #expect(values == texts.map(JSONValue.number) + wrong.map(JSONValue.string))
      #expect(try JSONSerialization.jsonObject(with: Data(written)) is [Any])
    }
  }

  @Test("the schema is JSON Schema 2020-12 with only id required")
  func schemaShape() throws {
    let object = try JSONSerialization.jsonObject(with: Data(RoadmapSchema.json.utf8))
    let schema = try #require(object as? [String: Any])
    #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    // A name, not a URL: it claims no repository or host that may not exist.
    #expect(schema["$id"] as? String == "urn:roadmapbridge:schema:roadmap-json")
    #expect(schema["type"] as? String == "array")
    let defs = try #require(schema["$defs"] as? [String: Any])
    let feature = try #require(defs["feature"] as? [String: Any])
    #expect(feature["required"] as? [String] == ["id"])
    let properties = try #require(feature["properties"] as? [String: Any])
    #expect(
      Set(properties.keys) == [
        "id", "title", "status", "description", "isFinished", "votes", "localizedTitle",
        "localizedStatus", "localizedDescription",
      ])
    let title = try #require(properties["title"] as? [String: Any])
    #expect(title["type"] as? [String] == ["string", "null"])
  }

  @Test("Samples/roadmap.schema.json is the same text as RoadmapSchema.json")
  func samplesCopyMatches() throws {
    let url = packageRoot.appendingPathComponent("Samples/roadmap.schema.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text == RoadmapSchema.json)
  }
}
