/// Writes an export (version 2) as JSON in pieces, counter by counter, so that exporting
/// 200,000 counters needs memory for one counter and a 64 KiB buffer, not for the whole file.
///
/// The text is what `JSONEncoder` writes with `.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes` (two-space indents, `" : "`), and ``VoteExport/read(_:)`` reads it.
struct ExportJSONWriter {
  private let sink: ([UInt8]) throws(VoteStoreError) -> Void
  private var buffer: [UInt8] = []
  private(set) var counters = 0
  private(set) var voters = 0

  /// A sink that hands pieces to `write` and turns its errors into `.io`.
  static func forwarding(
    _ write: @escaping @Sendable ([UInt8]) throws -> Void
  ) -> ([UInt8]) throws(VoteStoreError) -> Void {
    { bytes throws(VoteStoreError) in
      do {
        try write(bytes)
      } catch {
        throw VoteStoreError(.io, "cannot write the export: \(error)")
      }
    }
  }

  /// How much text is collected before it is handed to the sink.
  static let chunkSize = 64 << 10

  init(sink: @escaping ([UInt8]) throws(VoteStoreError) -> Void) {
    self.sink = sink
    buffer.reserveCapacity(Self.chunkSize + 4096)
    append("{\n  \"counters\" : [")
  }

  /// Adds one counter, its (sorted) voters and what the last import set on it, if anything.
  mutating func add(_ record: CounterRecord, voters list: [String], imported: Int64? = nil)
    throws(VoteStoreError)
  {
    append(counters == 0 ? "\n    {\n" : ",\n    {\n")
    if let imported { append("      \"imported\" : \(imported),\n") }
    append("      \"record\" : {\n")
    append("        \"createdAt\" : \(record.createdAt),\n")
    append("        \"enableReset\" : \(record.enableReset),\n")
    append("        \"id\" : \(record.id),\n")
    append("        \"key\" : ")
    string(record.key)
    append(",\n        \"namespace\" : ")
    string(record.namespace)
    append(",\n        \"updateLowerBound\" : \(record.updateLowerBound),\n")
    append("        \"updateUpperBound\" : \(record.updateUpperBound),\n")
    append("        \"updatedAt\" : \(record.updatedAt),\n")
    append("        \"value\" : \(record.value)\n")
    append("      },\n      \"voters\" : [")
    for (index, voter) in list.enumerated() {
      append(index == 0 ? "\n        " : ",\n        ")
      string(voter)
    }
    append(list.isEmpty ? "]\n    }" : "\n      ]\n    }")
    counters += 1
    voters += list.count
    if buffer.count >= Self.chunkSize { try flush() }
  }

  /// Closes the document with its version and voter key fingerprint, and flushes.
  mutating func finish(voterKey: String) throws(VoteStoreError) -> ExportSummary {
    append(counters == 0 ? "],\n" : "\n  ],\n")
    append("  \"version\" : \(VoteExport.currentVersion),\n  \"voterKey\" : ")
    string(voterKey)
    append("\n}\n")
    try flush()
    return ExportSummary(counters: counters, voters: voters)
  }

  private mutating func flush() throws(VoteStoreError) {
    guard !buffer.isEmpty else { return }
    try sink(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  private mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

  /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`.
  private mutating func string(_ text: String) {
    buffer.append(0x22)
    for byte in text.utf8 {
      switch byte {
      case 0x22: buffer.append(contentsOf: [0x5C, 0x22])
      case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
      case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
      case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
      case 0x00..<0x20:
        let digits = Array("0123456789abcdef".utf8)
        buffer.append(contentsOf: [
          0x5C, 0x75, 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0xF)],
        ])
      default: buffer.append(byte)
      }
    }
    buffer.append(0x22)
  }
}
