/// Turns byte offsets into 1-based lines and columns (columns count characters, not bytes).
struct LineTable {
  private let bytes: [UInt8]
  private let starts: [Int]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
    self.starts = starts
  }

  /// The line and column of `offset`.
  func position(of offset: Int) -> (line: Int, column: Int) {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    let start = starts[low]
    let end = min(offset, bytes.count)
    let column = bytes[start..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    return (low + 1, column)
  }
}
