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

  /// Line and column by the definition: line breaks before the offset, scalars since the last.
  static func naive(_ offset: Int, in bytes: [UInt8]) -> [Int] {
    let target = max(0, min(offset, bytes.count))
    let before = bytes[..<target]
    let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
    return [
      before.filter { $0 == 0x0A }.count + 1,
      bytes[lineStart..<target].filter { $0 & 0xC0 != 0x80 }.count + 1,
    ]
  }

  @Test("many positions on one line, in any order and repeated, count as one each")
  func manyOnOneLine() {
    // A minified file with an error per feature: every position on one long line. Each one
    // counts on from the one before it on its line (this once walked back to the line's start
    // each time: 50,000 duplicate ids on one line took 32 s).
    var generator = SplitMix64(seed: 7)
    let pieces: [[UInt8]] = [Array("ab".utf8), Array("é".utf8), Array("👍🏽".utf8), [0xAE]]
    for round in 0..<20 {
      var bytes: [UInt8] = []
      for _ in 0..<(round * 40 + 5) {
        // Mostly one line: a line break one time in forty.
        if Int.random(in: 0..<40, using: &generator) == 0 {
          bytes.append(0x0A)
        } else {
          bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
        }
      }
      let offsets = (0..<200).map { _ in
        Int.random(in: -2..<(bytes.count + 3), using: &generator)
      }
      let found = bytes.withUnsafeBufferPointer { LineIndex.locations(of: offsets, in: $0) }
      #expect(found.map { [$0.line, $0.column] } == offsets.map { Self.naive($0, in: bytes) })
    }
  }

  /// Whether `bytes[index]` ends a line by the definition: LF, or CR not followed by LF.
  static func endsLine(_ index: Int, in bytes: [UInt8]) -> Bool {
    bytes[index] == 0x0A
      || (bytes[index] == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A))
  }

  /// ``naive(_:in:)`` with every kind of line end: LF, CRLF (one) and a lone CR.
  static func naiveAnyLineEnd(_ offset: Int, in bytes: [UInt8]) -> [Int] {
    let target = max(0, min(offset, bytes.count))
    let ends = (0..<target).filter { Self.endsLine($0, in: bytes) }
    let lineStart = (ends.last ?? -1) + 1
    return [ends.count + 1, bytes[lineStart..<target].filter { $0 & 0xC0 != 0x80 }.count + 1]
  }

  @Test("a lone CR ends a line, CRLF ends one, as LF does, in every count")
  func carriageReturnsEndLines() {
    var generator = SplitMix64(seed: 13)
    let pieces: [[UInt8]] = [
      Array("ab".utf8), Array("é".utf8), [0x0A], [0x0D], [0x0D, 0x0A], [0x0D, 0x0D],
      Array("       ".utf8),
    ]
    for round in 0..<40 {
      var bytes: [UInt8] = []
      for _ in 0..<(round * 5 + 3) {
        bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      let offsets = (0..<60).map { _ in Int.random(in: 0..<(bytes.count + 1), using: &generator) }
      let found = bytes.withUnsafeBufferPointer { LineIndex.locations(of: offsets, in: $0) }
      #expect(
        found.map { [$0.line, $0.column] } == offsets.map { Self.naiveAnyLineEnd($0, in: bytes) },
        "\(bytes)")
      // Counted in two parts, split anywhere (a CRLF across the split too), as in one.
      let split = Int.random(in: 0...bytes.count, using: &generator)
      bytes.withUnsafeBufferPointer { buffer in
        let whole = LineIndex.countLineBreaks(buffer, from: 0, to: buffer.count)
        let parts =
          LineIndex.countLineBreaks(buffer, from: 0, to: split)
          + LineIndex.countLineBreaks(buffer, from: split, to: buffer.count)
        #expect(whole == (0..<bytes.count).count { Self.endsLine($0, in: bytes) })
        #expect(parts == whole)
      }
    }
  }

  @Test("a file with lone CR line ends has the positions of the same file with LF or CRLF")
  func oldMacLineEnds() {
    let lines = [
      "[", "  {\"id\": \"1\", \"title\": \"A\"},", "  // a comment", "  {\"id\": 2},",
      "  {\"id\": \"3\", \"isFinished\": \"yes\", \"x\": \"a\tb\"},", "  {\"id\": \"4\",",
      "   \"votes\": 1.5}", "]", "",
    ]
    func located(_ separator: String) -> [[String]] {
      RoadmapValidator().validate(Array(lines.joined(separator: separator).utf8)).diagnostics.map {
        [$0.code, "\($0.line):\($0.column)"]
      }
    }
    let expected = located("\n")
    #expect(expected.count >= 4)
    #expect(expected.contains(["id-not-string", "4:10"]))
    #expect(located("\r") == expected)
    #expect(located("\r\n") == expected)
    // The parser's line checkpoints agree with counting from the start.
    let (withCheckpoints, counted) = Self.positions(Array(lines.joined(separator: "\r").utf8))
    #expect(withCheckpoints == counted)
  }
}
