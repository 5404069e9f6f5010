import Foundation
import Testing

@testable import VoteStore

/// Positions of import problems: many on one line (a minified export) must each be where a
/// count from the line's start puts them, found in one pass.
@Suite struct LineTableTests {
  /// Line and column by the definition: line breaks before the offset, characters since the last.
  static func naive(_ offset: Int, in bytes: [UInt8]) -> [Int] {
    let end = min(offset, bytes.count)
    let before = bytes[..<end]
    let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
    return [
      bytes[..<min(offset, bytes.count)].filter { $0 == 0x0A }.count + 1,
      bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count + 1,
    ]
  }

  @Test func positionsInAnyOrderMatchCountingFromTheLineStart() {
    var random = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [Array("ab".utf8), Array("é".utf8), Array("👍🏽".utf8), [0x0A]]
    for _ in 0..<20 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0..<400, using: &random) {
        // Mostly one line: a line break one piece in forty.
        let newline = Int.random(in: 0..<40, using: &random) == 0
        bytes += newline ? [0x0A] : pieces[Int.random(in: 0..<3, using: &random)]
      }
      let offsets = (0..<100).map { _ in Int.random(in: 0...(bytes.count + 2), using: &random) }
      let table = LineTable(bytes)
      let found = table.positions(of: offsets).map { [$0.line, $0.column] }
      #expect(found == offsets.map { Self.naive($0, in: bytes) }, "\(bytes) \(offsets)")
      for offset in offsets.prefix(5) {
        let one = table.position(of: offset)
        #expect([one.line, one.column] == Self.naive(offset, in: bytes))
      }
    }
  }

  @Test func aMinifiedExportWithEveryCounterTwice() throws {
    let record =
      #"{"record":{"id":1,"namespace":"app.example","key":"feature1","value":3,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":[]}"#
    let text =
      #"{"version":1,"counters":["# + Array(repeating: record, count: 300).joined(separator: ",")
      + "]}"
    guard case .failure(let problems) = VoteExport.read(Array(text.utf8)) else {
      Issue.record("expected problems")
      return
    }
    #expect(problems.problems.count == 299)
    // Each points at the key of the next counter: the n-th "feature1" of the line, n ≥ 2.
    let bytes = Array(text.utf8)
    let needle = Array(#""feature1""#.utf8)
    let keyColumns = bytes.indices.filter { bytes[$0...].starts(with: needle) }.map { $0 + 1 }
    #expect(problems.problems.map(\.line) == Array(repeating: 1, count: 299))
    #expect(problems.problems.map(\.column) == keyColumns.dropFirst().map { $0 })
  }
}
