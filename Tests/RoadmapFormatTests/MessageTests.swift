import Foundation
import RoadmapFormat
import Testing

/// What messages say: which document a related place is in, features numbered from 1, binary
/// files recognized as such.
@Suite("Messages")
struct MessageTests {
  @Test("a removed feature's related place is in the previous document, a duplicate's in this one")
  func relatedDocuments() throws {
    let report = validate(
      #"[{"id": "a"}, {"id": "a"}]"#, previous: "[\n{\"id\": \"a\"},\n{\"id\": \"gone\"}]")
    let removed = try #require(report.first("removed-id"))
    #expect(removed.related.map(\.document) == [.previous])
    #expect(removed.related.first?.line == 3)
    #expect(removed.related.first?.column == 8)
    let duplicate = try #require(report.first("duplicate-id"))
    #expect(duplicate.related.map(\.document) == [.same])
    #expect(duplicate.message.contains("already used by feature #1;"))
  }

  @Test("a related location round-trips through Codable; one without a document is in this one")
  func relatedLocationCodable() throws {
    let location = RelatedLocation(
      message: "m", path: "/0/id", line: 2, column: 3, document: .previous)
    let data = try JSONEncoder().encode(location)
    #expect(String(decoding: data, as: UTF8.self).contains(#""document":"previous""#))
    #expect(try JSONDecoder().decode(RelatedLocation.self, from: data) == location)
    let old = Data(#"{"message":"m","path":"","line":1,"column":1}"#.utf8)
    #expect(try JSONDecoder().decode(RelatedLocation.self, from: old).document == .same)
    let unknown = Data(#"{"message":"m","path":"","line":1,"column":1,"document":"x"}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(RelatedLocation.self, from: unknown)
    }
  }

  @Test("features are named by id and 1-based position")
  func featuresNumberedFromOne() throws {
    let report = validate(
      #"[{"id": "x", "localizedTitle": [{"language": "en", "value": "X"}]}, {"id": "y"}, "#
        + #"{"id": "z", "localizedTitle": [{"language": "de", "value": "Z"}]}]"#,
      options: ValidationOptions(languages: ["en"]))
    let missing = try #require(report.first("missing-language"))
    #expect(missing.message.contains(#"feature "z" (#3)"#))
  }

  @Test("a binary file is one not-text error, which the app's decoder also rejects")
  func binaryFile() throws {
    let bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00] + Array(repeating: 0x41, count: 100)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.codes == ["not-text"])
    #expect(report.diagnostics.first?.message.contains("not a text file") == true)
    #expect(throws: RoadmapReadError.self) { try RoadmapDocument.read(bytes, mode: .compatible) }
  }

  @Test("a NUL byte far into a text file is not taken for a binary file")
  func lateNULIsAControlCharacter() {
    let head = "[{\"id\": \"1\", \"title\": \"" + String(repeating: "x", count: 9000)
    let bytes = Array(head.utf8) + [0x00] + Array("\"}]".utf8)
    let codes = RoadmapValidator().validate(bytes).codes
    #expect(!codes.contains("not-text"))
    #expect(codes.contains("control-character-in-string"))
  }
}
