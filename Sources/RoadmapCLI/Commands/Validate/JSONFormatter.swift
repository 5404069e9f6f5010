import RoadmapFormat

/// Exactly `{"files":[{"path":…,"valid":bool,"features":N,"diagnostics":[{"code":…,"severity":…,
/// "message":…,"path":…,"line":N,"column":N,"related":[{"file":…,"path":…,"line":N,"column":N,
/// "message":…}]}]}]}` on one line, lines and columns 1-based.
enum JSONFormatter {
  static func render(_ files: [ValidatedFile]) -> String {
    "{\"files\":[" + files.map(renderFile).joined(separator: ",") + "]}\n"
  }

  /// One element of `files`, so a caller can stream them between `{"files":[` and `]}`.
  static func renderFile(_ file: ValidatedFile) -> String {
    var output = "{\"path\":\(JSONText.quote(file.displayPath)),\"valid\":\(file.isValid),"
    output += "\"features\":\(file.featureCount),\"diagnostics\":["
    for (index, diagnostic) in file.diagnostics.enumerated() {
      if index > 0 { output += "," }
      output += "{\"code\":\(JSONText.quote(diagnostic.code)),"
      output += "\"severity\":\(JSONText.quote(diagnostic.severity.rawValue)),"
      output += "\"message\":\(JSONText.quote(diagnostic.message)),"
      output += "\"path\":\(JSONText.quote(diagnostic.path)),"
      output += "\"line\":\(max(1, diagnostic.line)),\"column\":\(max(1, diagnostic.column)),"
      output += "\"related\":["
      output += diagnostic.related.map { related in
        "{\"file\":\(JSONText.quote(file.path(of: related))),"
          + "\"path\":\(JSONText.quote(related.path)),"
          + "\"line\":\(max(1, related.line)),\"column\":\(max(1, related.column)),"
          + "\"message\":\(JSONText.quote(related.message))}"
      }.joined(separator: ",")
      output += "]}"
    }
    return output + "]}"
  }
}
