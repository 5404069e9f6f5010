import RoadmapFormat

/// `path:line:column: severity: message [code]`, the source line, a caret under the column, the
/// related places as notes (each naming its own file), and a summary line per file. A file that
/// is not text gets no excerpt (it would be a line of unprintable bytes).
enum HumanFormatter {
  static func render(_ files: [ValidatedFile], summaries: Bool = true) -> String {
    var output = ""
    for file in files {
      var lines = SourceLines(file.document, knownLines: file.knownLines)
      for diagnostic in file.diagnostics {
        output += "\(file.displayPath):\(diagnostic.line):\(diagnostic.column): "
        output += "\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code)]\n"
        if diagnostic.code != "not-text",
          let excerpt = lines.excerpt(line: diagnostic.line, column: diagnostic.column)
        {
          output += excerpt.source + "\n" + excerpt.caret + "\n"
        }
        for related in diagnostic.related {
          output += "\(file.path(of: related)):\(related.line):\(related.column): note: "
          output += related.message + "\n"
        }
      }
      if summaries { output += file.summary + "\n" }
    }
    return output
  }
}
