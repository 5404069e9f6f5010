import Testing

@testable import RoadmapFormat

/// Positions: the parser's line checkpoints must give the same lines as counting from the start.
@Suite("Line index")
struct LineIndexTests {
  static func positions(_ bytes: [UInt8]) -> (
    withCheckpoints: [RoadmapFormat.SourceLocation], counted: [RoadmapFormat.SourceLocation]
  ) {
    bytes.withUnsafeBufferPointer { buffer in
      let outcome = ParseOutcome.parse(buffer, collectWarnings: true)
      let offsets = outcome.issues.map(\.offset) + outcome.records.map(\.idOffset)
      return (
        LineIndex.locations(of: offsets, in: buffer, checkpoints: outcome.checkpoints),
        LineIndex.locations(of: offsets, in: buffer)
      )
    }
  }

  @Test("checkpoints agree with counting, through comments, CRLF and recovered errors")
  func checkpointsAgree() {
    let json = """
      [
        /* a
           block */ {"id": "1", "title": "a",},
        {"id": "2" "title": "b"},
        // line
        {"id": "3", "title": "c\\q", "description": "x
        "},
        {"id": "4", "votes": -1}\r
      ]
      """
    let (withCheckpoints, counted) = Self.positions(Array(json.utf8))
    #expect(!withCheckpoints.isEmpty)
    #expect(withCheckpoints == counted)
  }

  @Test("checkpoints agree with counting on mutated documents")
  func mutatedAgree() {
    var generator = SplitMix64(seed: 99)
    let seed = Array(
      "[\n {\"id\": \"1\", \"votes\": -1, \"status\": \"Done\"},\n\n {\"id\": \"1\"}, /* c\n */ {\"x\": 1}\n]"
        .utf8)
    let insertions = Array("\n/*\"{}[],:".utf8)
    for _ in 0..<500 {
      var bytes = seed
      let index = Int.random(in: 0..<bytes.count, using: &generator)
      bytes.insert(insertions.randomElement(using: &generator)!, at: index)
      let (withCheckpoints, counted) = Self.positions(bytes)
      #expect(withCheckpoints == counted, "\(String(decoding: bytes, as: UTF8.self))")
    }
  }

  @Test("columns count Unicode scalars from the start of the line")
  func columns() {
    let text = Array("ab\nü👍🏽x\n".utf8)
    let locations = text.withUnsafeBufferPointer {
      LineIndex.locations(of: [0, 1, 3, 5, 9, 13, 14, 99], in: $0)
    }
    #expect(
      locations.map { [$0.line, $0.column] } == [
        [1, 1], [1, 2], [2, 1], [2, 2], [2, 3], [2, 4], [2, 5], [3, 1],
      ])
  }
}
