/// Where a document stops being JSON (RFC 8259), for messages: what `JSONDecoder` and
/// `JSONSerialization` report without a place ("The given data was not valid JSON.").
package enum JSONSyntaxCheck {
  /// The first syntax error of `bytes`: its 1-based line and column (columns count
  /// characters) and what was expected there; nil when `bytes` is one JSON value.
  package static func firstError(in bytes: [UInt8]) -> (line: Int, column: Int, message: String)? {
    bytes.withUnsafeBufferPointer { firstError(in: $0) }
  }

  /// The first syntax error of `bytes` (see ``firstError(in:)-([UInt8])``).
  static func firstError(
    in bytes: UnsafeBufferPointer<UInt8>
  ) -> (line: Int, column: Int, message: String)? {
    var scanner = ExportJSONScanner(bytes)
    let offset: Int
    let message: String
    do throws(ExportJSONScanner.SyntaxError) {
      try scanner.skipValue()
      guard !scanner.atEnd() else { return nil }
      offset = scanner.offset
      message = "text after the JSON value"
    } catch {
      offset = error.offset
      message = error.message
    }
    let position = LineTable(bytes).position(of: offset)
    return (position.line, position.column, message)
  }

  /// `FILE:LINE:COLUMN: not valid JSON: WHAT` for the first syntax error of `bytes` (as
  /// `votes import` says it), or nil when `bytes` is JSON.
  package static func describe(_ bytes: [UInt8], file: String) -> String? {
    firstError(in: bytes).map { "\(file):\($0.line):\($0.column): not valid JSON: \($0.message)" }
  }

  /// The first byte of `bytes` that is not UTF-8 text (a NUL, or a byte no UTF-8 sequence
  /// has there): its 1-based line and column and the byte; nil when `bytes` is text.
  package static func firstNonText(in bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
    bytes.withUnsafeBufferPointer { firstNonText(in: $0, release: { _ in }) }
  }

  /// The first byte of the file that is not UTF-8 text (see ``firstNonText(in:)-([UInt8])``),
  /// read in one pass that hands the pages it has read back to the system as it goes.
  package static func firstNonText(
    in file: ExportFileBytes
  ) -> (line: Int, column: Int, byte: UInt8)? {
    file.withUnsafeBytes { bytes in
      firstNonText(in: bytes, release: { file.releasePages(0..<$0) })
    }
  }

  private static func firstNonText(
    in bytes: UnsafeBufferPointer<UInt8>, release: (Int) -> Void
  ) -> (line: Int, column: Int, byte: UInt8)? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var released = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        if encoded.count == 1 && encoded.first == 0 { break }
        offset += encoded.count
        if offset - released >= ExportFileBytes.releaseStep {
          release(offset)
          released = offset
        }
        continue
      case .error:
        break
      case .emptyInput:
        return nil
      }
      let position = LineTable(bytes).position(of: offset)
      return (position.line, position.column, bytes[offset])
    }
  }
}
