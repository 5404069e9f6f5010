/// Turns byte offsets into 1-based lines and columns (columns count Unicode scalars).
///
/// A line ends at a line feed, at a carriage return followed by one (CRLF, one line end) or at
/// a carriage return alone (old Mac OS files), as editors count lines; see ``endsLine(at:in:)``.
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
    // The last position found: a later one on its line counts on from it, so the offsets of
    // one long line (a minified file with an error per feature) cost one pass, not one each.
    var previous: (offset: Int, column: Int)?
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
        line += countLineBreaks(bytes, from: scanned, to: target)
        scanned = target
      }
      // Back from the target to the line's start (after the last line break before it), or
      // to the last position found if that comes first, counting the scalars that start on
      // the way.
      var position = target
      var scalars = 0
      var column: Int?
      while position > 0 {
        if let previous, previous.offset == position {
          column = previous.column + scalars
          break
        }
        let byte = bytes[position - 1]
        if byte == 0x0A || (byte == 0x0D && endsLine(at: position - 1, in: bytes)) { break }
        if byte & 0xC0 != 0x80 { scalars += 1 }
        position -= 1
      }
      if column == nil, position == 0, target >= 3, bytes.count >= 3, bytes[0] == 0xEF,
        bytes[1] == 0xBB, bytes[2] == 0xBF
      {
        // A UTF-8 byte-order mark takes no column: editors and GitHub's annotations do not
        // show it, so the first line's columns count from after it.
        scalars -= 1
      }
      let found = column ?? scalars + 1
      previous = (target, found)
      result[index] = SourceLocation(line: line, column: found)
    }
    return result
  }

  /// Whether the byte at `index` ends a line: a line feed, or a carriage return not followed
  /// by one (a CRLF ends its line at the line feed).
  @inline(__always)
  static func endsLine(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let byte = bytes[index]
    if byte == 0x0A { return true }
    return byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)
  }

  /// Counts the line ends (``endsLine(at:in:)``) in `bytes[from..<to]`, eight bytes at a time.
  ///
  /// A carriage return at `to - 1` is judged by the byte after it, even past `to`: a CRLF split
  /// by the range counts once, at its line feed.
  static func countLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let lineFeeds = ones &* 0x0A
    let returns = ones &* 0x0D
    var count = 0
    var position = from
    while position + 8 <= to {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      // High bit set exactly in the bytes that are a line feed (a carriage return): the bytes
      // of x that are zero.
      let x = word ^ lineFeeds
      let feedHits = ~(((x & low) &+ low) | x | low)
      let y = word ^ returns
      var returnHits = ~(((y & low) &+ low) | y | low)
      if returnHits != 0 {
        // A carriage return followed by a line feed is one line end, counted at the feed
        // (little-endian: the next byte is the next higher one).
        returnHits &= ~(feedHits >> 8)
        if returnHits >> 63 != 0, position + 8 < bytes.count, base[position + 8] == 0x0A {
          returnHits &= ~(UInt64(1) << 63)
        }
      }
      // The multiply adds up the bits in the top byte (no popcount instruction on baseline
      // x86-64).
      count &+= Int(truncatingIfNeeded: (((feedHits | returnHits) >> 7) &* ones) >> 56)
      position += 8
    }
    while position < to {
      if endsLine(at: position, in: bytes) { count += 1 }
      position += 1
    }
    return count
  }
}
