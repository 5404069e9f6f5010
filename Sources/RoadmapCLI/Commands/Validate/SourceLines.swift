import RoadmapFormat

/// Finds source lines and columns in a document's bytes, for the excerpts under human diagnostics.
///
/// Nothing is indexed up front: a line is found from the nearest line the reader already knew
/// (one per feature, `ValidationReport.knownLines`) or from the previous line found, so the
/// excerpts of a large file read only the bytes around their diagnostics. Columns count Unicode
/// scalars, as diagnostics do; for diagnostics in order a cursor continues from the previous
/// position, so many diagnostics on one long line (a minified file) cost time in proportion to
/// the line, not to the line times the diagnostics. Lines end where diagnostics count them: at
/// LF, CRLF or a lone CR.
struct SourceLines {
  private let document: DocumentBytes
  private let knownLines: [KnownLine]
  /// The last line found: its number, where it starts and where it ends (its line break or the
  /// end of the document).
  private var line: (number: Int, start: Int, end: Int)
  private var cursor: (line: Int, column: Int, offset: Int) = (0, 0, 0)

  /// How many scalars an excerpt shows on each side of the caret on a long line.
  static let context = 60

  /// Lines up to this many bytes are shown whole.
  static let wholeLine = 160

  init(_ bytes: [UInt8]) {
    self.init(DocumentBytes(bytes), knownLines: [])
  }

  /// Lines of `document`, starting from `knownLines` (in offset order) where they help.
  init(_ document: DocumentBytes, knownLines: [KnownLine]) {
    self.document = document
    self.knownLines = knownLines
    line = (1, 0, -1)
  }

  /// The source line around `column` and the caret under it, or nil when there is no such line.
  mutating func excerpt(line number: Int, column: Int) -> (source: String, caret: String)? {
    document.withUnsafeBytes { bytes in
      guard number >= 1, let (start, lineEnd) = find(line: number, in: bytes) else { return nil }
      var end = lineEnd
      // The CR of a CRLF is part of the line end, not of the text.
      if end < bytes.count, bytes[end] == 0x0A, end > start, bytes[end - 1] == 0x0D { end -= 1 }
      guard end > start else { return nil }

      let caretOffset = offset(
        line: number, column: max(1, column), start: start, end: end, in: bytes)
      let context = end - start <= Self.wholeLine ? Int.max : Self.context
      var windowStart = caretOffset
      var before = 0
      while windowStart > start, before < context {
        windowStart -= 1
        while windowStart > start, bytes[windowStart] & 0xC0 == 0x80 { windowStart -= 1 }
        before += 1
      }
      var windowEnd = caretOffset
      var after = 0
      while windowEnd < end, after < context {
        windowEnd += 1
        while windowEnd < end, bytes[windowEnd] & 0xC0 == 0x80 { windowEnd += 1 }
        after += 1
      }
      let head = windowStart > start ? "…" : ""
      let tail = windowEnd < end ? "…" : ""
      func printable(_ range: Range<Int>) -> String {
        let text = String(decoding: bytes[range], as: UTF8.self)
        return String(
          String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
      }
      // The caret goes under the column as a terminal shows it: a wide character (CJK, an
      // emoji) before it takes two columns, a combining mark none.
      let lead = TerminalWidth.of(printable(windowStart..<caretOffset))
      let caret = String(repeating: " ", count: lead + (head.isEmpty ? 0 : 1)) + "^"
      return ("    " + head + printable(windowStart..<windowEnd) + tail, "    " + caret)
    }
  }

  /// Where line `number` starts and ends (at its line break, or the end), or nil when the
  /// document has fewer lines.
  private mutating func find(line number: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
    Int, Int
  )? {
    if number < line.number { line = (1, 0, -1) }
    if let known = firstKnownLine(onOrBefore: number), known.line > line.number {
      var start = min(known.offset, bytes.count)
      while start > 0 && !Self.endsLine(at: start - 1, in: bytes) { start -= 1 }
      line = (known.line, start, -1)
    }
    while line.number < number {
      let end = line.end >= 0 ? line.end : nextLineBreak(from: line.start, in: bytes)
      guard end < bytes.count else { return nil }
      line = (line.number + 1, end + 1, -1)
    }
    if line.end < 0 { line.end = nextLineBreak(from: line.start, in: bytes) }
    return (line.start, line.end)
  }

  /// The earliest known offset on the last known line at or before `number`.
  private func firstKnownLine(onOrBefore number: Int) -> KnownLine? {
    // The number of known lines at or before `number` (lines grow with offsets).
    var low = 0
    var high = knownLines.count
    while low < high {
      let middle = (low + high) / 2
      if knownLines[middle].line <= number { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let target = knownLines[low - 1].line
    var first = 0
    high = low - 1
    while first < high {
      let middle = (first + high) / 2
      if knownLines[middle].line < target { first = middle + 1 } else { high = middle }
    }
    return knownLines[first]
  }

  /// Where the line starting at `start` ends: its LF (the LF of a CRLF), its lone CR, or the
  /// end of the document.
  private func nextLineBreak(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start
    while index < bytes.count && !Self.endsLine(at: index, in: bytes) { index += 1 }
    return index
  }

  /// Whether the byte at `index` ends a line: LF, or CR not followed by LF.
  private static func endsLine(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let byte = bytes[index]
    if byte == 0x0A { return true }
    return byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)
  }

  /// The byte offset of `column` (1-based, in scalars) on `line`, clamped to the line's end.
  private mutating func offset(
    line: Int, column: Int, start: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Int {
    var current = (column: 1, offset: start)
    if cursor.line == line, cursor.column <= column { current = (cursor.column, cursor.offset) }
    while current.column < column, current.offset < end {
      current.offset += 1
      while current.offset < end, bytes[current.offset] & 0xC0 == 0x80 { current.offset += 1 }
      current.column += 1
    }
    cursor = (line, current.column, current.offset)
    return current.offset
  }
}
