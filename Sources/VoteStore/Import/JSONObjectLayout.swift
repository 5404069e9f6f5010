/// Where the members of a JSON document's top-level object are, so that a large document
/// (a `roadmapctl backup`) can be read a member at a time.
package enum JSONObjectLayout {
  /// The members of the object that `file` holds, each with the bytes range of its value; nil
  /// when `file` is not exactly one object of strict JSON (RFC 8259), or names a member twice.
  /// The pages read are handed back as the scan goes.
  ///
  /// - Parameters:
  ///   - file: the document.
  ///   - skimming: members whose values are only skimmed (``ExportJSONScanner/skim(passed:)``:
  ///     brackets and strings matched, nothing else checked), because the caller reads their
  ///     ranges strictly itself (a backup's `votes`, most of its bytes): a value that is not
  ///     strict JSON is then the caller's to refuse.
  package static func members(
    of file: ExportFileBytes, skimming: Set<String> = []
  ) -> [String: Range<Int>]? {
    file.withUnsafeBytes { bytes -> [String: Range<Int>]? in
      var scanner = ExportJSONScanner(bytes)
      var members: [String: Range<Int>] = [:]
      var released = 0
      var twice = false
      func skip(
        _ value: ExportJSONScanner.Value, _ scanner: inout ExportJSONScanner
      ) throws(ExportJSONScanner.SyntaxError) {
        switch value {
        case .object:
          try scanner.object { scanner, _, _ throws(ExportJSONScanner.SyntaxError) in
            try skip(try scanner.value().value, &scanner)
          }
        case .array:
          try scanner.array { scanner, _ throws(ExportJSONScanner.SyntaxError) in
            try skip(try scanner.value().value, &scanner)
            if scanner.offset - released >= ExportFileBytes.releaseStep {
              file.releasePages(0..<scanner.offset)
              released = scanner.offset
            }
          }
        default: break
        }
      }
      do throws(ExportJSONScanner.SyntaxError) {
        let (top, _) = try scanner.value()
        guard case .object = top else { return nil }
        try scanner.object { scanner, name, _ throws(ExportJSONScanner.SyntaxError) in
          let start: Int
          if skimming.contains(name) {
            scanner.skipWhitespace()
            start = scanner.offset
            try scanner.skim { offset in
              file.releasePages(0..<offset)
              released = offset
            }
          } else {
            let read = try scanner.value()
            start = read.offset
            try skip(read.value, &scanner)
          }
          if members[name] != nil { twice = true }
          members[name] = start..<scanner.offset
        }
        guard scanner.atEnd(), !twice else { return nil }
      } catch {
        return nil
      }
      file.releasePages(0..<file.count)
      return members
    }
  }
}
