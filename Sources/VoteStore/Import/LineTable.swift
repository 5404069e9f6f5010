/// Turns byte offsets into 1-based lines and columns (columns count characters, not bytes).
struct LineTable<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
  private let bytes: Bytes
  private let starts: [Int]

  init(_ bytes: Bytes) {
    self.bytes = bytes
    var starts = [0]
    for offset in bytes.indices where bytes[offset] == 0x0A { starts.append(offset + 1) }
    self.starts = starts
  }

  /// The line and column of `offset`.
  func position(of offset: Int) -> (line: Int, column: Int) {
    positions(of: [offset])[0]
  }

  /// The line and column of each offset, in the order given. Taken in ascending order, an
  /// offset counts its column on from the one before it on the same line, so the problems of
  /// a minified export (every counter on one line) cost one pass over that line, not one each:
  /// 100,000 duplicate counters took 486 s to report this way.
  func positions(of offsets: [Int]) -> [(line: Int, column: Int)] {
    var result = [(line: Int, column: Int)](repeating: (1, 1), count: offsets.count)
    var previous: (line: Int, end: Int, column: Int)?
    for index in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
      let offset = max(0, offsets[index])
      let line = lineIndex(of: offset)
      let end = min(offset, bytes.count)
      var (from, column) = (starts[line], 1)
      if let previous, previous.line == line { (from, column) = (previous.end, previous.column) }
      for byte in bytes[from..<max(from, end)] where byte & 0xC0 != 0x80 { column += 1 }
      previous = (line, max(from, end), column)
      result[index] = (line + 1, column)
    }
    return result
  }

  /// The 0-based line holding `offset`: the last line start at or before it.
  private func lineIndex(of offset: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }
}
