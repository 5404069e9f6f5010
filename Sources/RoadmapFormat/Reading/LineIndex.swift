/// Turns byte offsets into 1-based lines and columns (columns count Unicode scalars).
///
/// Positions are computed only for the offsets asked for. The parser counts line breaks as it
/// skips whitespace and leaves a checkpoint (offset, line) at every feature, so each position
/// costs a count from the nearest checkpoint before it; without checkpoints, one forward pass
/// over the bytes up to the largest offset.
enum LineIndex {
  /// A known line at an offset.
  struct Checkpoint: Sendable {
    var offset: Int
    var line: Int
  }

  /// The line and column of every offset (clamped to the buffer), in the order given.
  static func locations(
    of offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>, checkpoints: [Checkpoint] = []
  ) -> [SourceLocation] {
    guard !offsets.isEmpty else { return [] }
    let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
    var result = [SourceLocation](
      repeating: SourceLocation(line: 1, column: 1), count: offsets.count)
    var line = 1
    var scanned = 0
    var nextCheckpoint = 0
    for index in order {
      let target = max(0, min(offsets[index], bytes.count))
      while nextCheckpoint < checkpoints.count && checkpoints[nextCheckpoint].offset <= target {
        if checkpoints[nextCheckpoint].offset > scanned {
          scanned = checkpoints[nextCheckpoint].offset
          line = checkpoints[nextCheckpoint].line
        }
        nextCheckpoint += 1
      }
      if target > scanned {
        line += countNewlines(bytes, from: scanned, to: target)
        scanned = target
      }
      // The line starts after the last line break before the target.
      var lineStart = target
      while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
      var column = 1
      for position in lineStart..<target where bytes[position] & 0xC0 != 0x80 {
        column += 1
      }
      result[index] = SourceLocation(line: line, column: column)
    }
    return result
  }

  /// Counts `\n` in `bytes[from..<to]`, eight bytes at a time.
  static func countNewlines(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let newlines = ones &* 0x0A
    var count = 0
    var position = from
    while position + 8 <= to {
      let x = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self) ^ newlines
      // High bit set exactly in the bytes of x that are zero; the multiply adds up those
      // bits in the top byte (no popcount instruction on baseline x86-64).
      let hits = ~(((x & low) &+ low) | x | low) >> 7
      count &+= Int(truncatingIfNeeded: (hits &* ones) >> 56)
      position += 8
    }
    while position < to {
      if base[position] == 0x0A { count += 1 }
      position += 1
    }
    return count
  }
}
