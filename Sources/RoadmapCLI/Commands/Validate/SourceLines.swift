/// Finds source lines and columns in a document's bytes, for the excerpts under human diagnostics.
///
/// Line starts are indexed once. Columns count Unicode scalars, as diagnostics do; for diagnostics
/// in order a cursor continues from the previous position, so many diagnostics on one long line
/// (a minified file) cost time in proportion to the line, not to the line times the diagnostics.
struct SourceLines {
  private let bytes: [UInt8]
  private let lineStarts: [Int]
  private var cursor: (line: Int, column: Int, offset: Int) = (0, 0, 0)

  /// How many scalars an excerpt shows on each side of the caret on a long line.
  static let context = 60

  /// Lines up to this many bytes are shown whole.
  static let wholeLine = 160

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    bytes.withUnsafeBufferPointer { buffer in
      for index in buffer.indices where buffer[index] == 0x0A {
        starts.append(index + 1)
      }
    }
    lineStarts = starts
  }

  /// The source line around `column` and the caret under it, or nil when there is no such line.
  mutating func excerpt(line: Int, column: Int) -> (source: String, caret: String)? {
    guard line >= 1, line <= lineStarts.count else { return nil }
    let start = lineStarts[line - 1]
    var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
    if end > start, bytes[end - 1] == 0x0D { end -= 1 }
    guard end > start else { return nil }

    let caretOffset = offset(line: line, column: max(1, column), start: start, end: end)
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
    let text = String(decoding: bytes[windowStart..<windowEnd], as: UTF8.self)
    let printable = String(
      String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }))
    let caret = String(repeating: " ", count: before + (head.isEmpty ? 0 : 1)) + "^"
    return ("    " + head + printable + tail, "    " + caret)
  }

  /// The byte offset of `column` (1-based, in scalars) on `line`, clamped to the line's end.
  private mutating func offset(line: Int, column: Int, start: Int, end: Int) -> Int {
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
