import Testing

@testable import RoadmapFormat

/// The automaton accepts exactly what the standard library decodes without repair.
@Suite("UTF-8 automaton")
struct UTF8AutomatonTests {
  static func wellFormed(_ bytes: [UInt8]) -> Bool {
    Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes
  }

  static func accepts(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer {
      UTF8Automaton.accepts($0.baseAddress!, from: 0, to: bytes.count)
    }
  }

  @Test("every one- and two-byte sequence")
  func shortSequences() {
    for first in 0...255 {
      #expect(Self.accepts([UInt8(first)]) == Self.wellFormed([UInt8(first)]))
      for second in 0...255 {
        let bytes = [UInt8(first), UInt8(second)]
        if Self.accepts(bytes) != Self.wellFormed(bytes) {
          Issue.record("disagree on \(bytes)")
        }
      }
    }
  }

  @Test("three- and four-byte sequences around every boundary, after ASCII words")
  func longSequences() {
    let interesting: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    let prefix = Array("sixteen ascii by".utf8)
    for a in interesting {
      for b in interesting {
        for c in interesting {
          let three = [a, b, c]
          #expect(Self.accepts(three) == Self.wellFormed(three), "\(three)")
          #expect(Self.accepts(prefix + three) == Self.wellFormed(prefix + three))
          for d in interesting {
            let four = [a, b, c, d]
            if Self.accepts(four) != Self.wellFormed(four) {
              Issue.record("disagree on \(four)")
            }
          }
        }
      }
    }
  }

  @Test("real text and text cut anywhere")
  func realText() {
    let text = Array("Готово — 计划中, 출시됨 🇩🇪👨‍👩‍👧 ä ß".utf8)
    #expect(Self.accepts(text))
    for cut in 0...text.count {
      let part = Array(text[..<cut])
      #expect(Self.accepts(part) == Self.wellFormed(part))
    }
  }

  @Test("long strings, cut in two for two chains, with bytes broken anywhere")
  func longStrings() {
    var generator = SplitMix64(seed: 21)
    let pieces = ["Готово ", "计划中", "출시됨 ", "ä", "ß", "a", " ", "🇩🇪", "Test 12", "€"].map {
      Array($0.utf8)
    }
    for _ in 0..<600 {
      var bytes: [UInt8] = []
      let length = Int.random(in: 40...400, using: &generator)
      while bytes.count < length { bytes += pieces.randomElement(using: &generator)! }
      #expect(Self.accepts(bytes))
      for _ in 0..<Int.random(in: 0...2, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[index] = UInt8.random(in: 0...255, using: &generator)
      }
      if Bool.random(using: &generator) {
        bytes.removeLast(Int.random(in: 0...3, using: &generator))
      }
      #expect(Self.accepts(bytes) == Self.wellFormed(bytes), "\(bytes)")
    }
  }
}
