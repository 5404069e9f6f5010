extension RoadmapParser {
  /// How many leading bytes are looked at for a NUL byte.
  static let textProbeLength = 8192

  /// Why the document is not text at all (an image, an archive, UTF-16 the app cannot
  /// convert), or nil when it may be text. The reason names the byte offset where it shows; the
  /// diagnostic itself is placed at 1:1, since lines mean nothing in a binary file.
  ///
  /// Two signs, either of which no Roadmap JSON file has: a first byte after white space (and a
  /// UTF-8 byte-order mark) that is a control character or not UTF-8; or a NUL byte among the
  /// first ``textProbeLength`` bytes of a document that does not start as JSON text does (with
  /// `[` or `{`, and no NUL in its first four bytes, which would make `JSONDecoder` take it for
  /// UTF-16 or UTF-32). A NUL later in a JSON text is left to the parser: in a value the app
  /// skips, `JSONDecoder` reads past it. A stray bad byte later in a text file is not taken for
  /// binary either; it gets its own diagnostic (`invalid-utf8`, `control-character-in-string`).
  func binaryEvidence(from start: Int) -> String? {
    var first = start
    while first < count, [0x20, 0x09, 0x0A, 0x0D].contains(base[first]) { first += 1 }
    guard first < count else { return nil }
    let byte = base[first]
    let isControl = byte < 0x20 || byte == 0x7F
    if isControl || (byte >= 0x80 && utf8SequenceLength(at: first) == 0) {
      return "it starts with the byte 0x\(String(byte, radix: 16, uppercase: true)) (at byte "
        + "offset \(first)), which is not text"
    }
    let startsAsJSON = (byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{"))
    let end = min(count, startsAsJSON ? 4 : Self.textProbeLength)
    for index in 0..<end where base[index] == 0 {
      return "it has a NUL byte (at byte offset \(index); UTF-16 text has them too, and this is "
        + "not UTF-16 the app can read: save it as UTF-8)"
    }
    return nil
  }
}
