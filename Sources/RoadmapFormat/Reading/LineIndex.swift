/// Turns byte offsets into 1-based lines and columns (columns count Unicode scalars).
///
/// Positions are computed only for the offsets asked for, in one forward pass over the bytes
/// up to the largest of them, eight bytes at a time; nothing is tracked while parsing.
enum LineIndex {
  /// The line and column of every offset (clamped to the buffer), in the order given.
  static func locations(of offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>)
    -> [SourceLocation]
  {
    guard !offsets.isEmpty else { return [] }
    let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
    var result = [SourceLocation](
      repeating: SourceLocation(line: 1, column: 1), count: offsets.count)
    var line = 1
    var lineStart = 0
    var scanned = 0
    for index in order {
      let target = max(0, min(offsets[index], bytes.count))
      if target > scanned {
        let (newlines, lastNewline) = countNewlines(bytes, from: scanned, to: target)
        if newlines > 0 {
          line += newlines
          lineStart = lastNewline + 1
        }
        scanned = target
      }
      var column = 1
      var position = lineStart
      while position < target {
        if bytes[position] & 0xC0 != 0x80 { column += 1 }
        position += 1
      }
      result[index] = SourceLocation(line: line, column: column)
    }
    return result
  }

  /// Counts `\n` in `bytes[from..<to]` and returns the offset of the last one.
  static func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int)
    -> (count: Int, last: Int)
  {
    guard let base = bytes.baseAddress else { return (0, -1) }
    var count = 0
    var position = from
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let newlines = ones &* 0x0A
    var lastWordWithNewline = -1
    while position + 8 <= to {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      let x = word ^ newlines
      let t = ((x & low) &+ low) | x
      let hits = ~t & high
      if hits != 0 {
        count += hits.nonzeroBitCount
        lastWordWithNewline = position
      }
      position += 8
    }
    var last = -1
    if lastWordWithNewline >= 0 {
      for offset in lastWordWithNewline..<(lastWordWithNewline + 8) where base[offset] == 0x0A {
        last = offset
      }
    }
    while position < to {
      if base[position] == 0x0A {
        count += 1
        last = position
      }
      position += 1
    }
    return (count, last)
  }
}
