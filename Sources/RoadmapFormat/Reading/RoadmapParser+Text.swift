extension RoadmapParser {
  /// How many leading bytes are looked at for a NUL byte.
  static let textProbeLength = 8192

  /// Why the document is not text at all (an image, an archive, UTF-16 without a byte-order
  /// mark), or nil when it may be text. The reason names the byte offset where it shows; the
  /// diagnostic itself is placed at 1:1, since lines mean nothing in a binary file.
  ///
  /// Two signs, either of which no Roadmap JSON file has: a NUL byte among the first
  /// ``textProbeLength`` bytes, or a first byte after white space (and a UTF-8 byte-order mark)
  /// that is a control character or not UTF-8. A stray bad byte later in a text file is not
  /// taken for this; it gets its own diagnostic (`invalid-utf8`, `control-character-in-string`).
  func binaryEvidence(from start: Int) -> String? {
    let end = min(count, Self.textProbeLength)
    for index in 0..<end where base[index] == 0 {
      return "it has a NUL byte (at byte offset \(index); UTF-16 text without a byte-order mark "
        + "has them too: if it is UTF-16, save it as UTF-8)"
    }
    var first = start
    while first < count, [0x20, 0x09, 0x0A, 0x0D].contains(base[first]) { first += 1 }
    guard first < count else { return nil }
    let byte = base[first]
    let isControl = byte < 0x20 || byte == 0x7F
    if isControl || (byte >= 0x80 && utf8SequenceLength(at: first) == 0) {
      return "it starts with the byte 0x\(String(byte, radix: 16, uppercase: true)) (at byte "
        + "offset \(first)), which is not text"
    }
    return nil
  }
}
