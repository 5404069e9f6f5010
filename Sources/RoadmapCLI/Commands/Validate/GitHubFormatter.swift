import Foundation
import RoadmapFormat

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=code::message`, which
/// GitHub shows as annotations on the pull request, then a plain summary line per file.
///
/// Under `--strict` (`strict`), warnings fail the job, so they are `::error` annotations too.
///
/// Escaping follows GitHub's rules: in the message `%`, `\r`, `\n` become `%25`, `%0D`, `%0A`; in
/// property values `:` and `,` also become `%3A` and `%2C`.
///
/// GitHub attaches an annotation to a file only when `file=` is the path from the repository's
/// root, without `./`: `./roadmap.json`, or an absolute path inside `workspace`
/// (`GITHUB_WORKSPACE`), is written that way.
enum GitHubFormatter {
  static func render(_ files: [ValidatedFile], strict: Bool = false, workspace: String? = nil)
    -> String
  {
    var output = ""
    for file in files {
      let annotated = annotationPath(file.displayPath, workspace: workspace)
      for diagnostic in file.diagnostics {
        let command: String
        switch diagnostic.severity {
        case .error: command = "error"
        case .warning: command = strict ? "error" : "warning"
        case .info: command = "notice"
        }
        var message = diagnostic.message
        for related in diagnostic.related {
          message +=
            "\n\(file.path(of: related)):\(related.line):\(related.column): \(related.message)"
        }
        output += "::\(command) file=\(escapeProperty(annotated)),line=\(diagnostic.line),"
        output += "col=\(diagnostic.column),title=\(escapeProperty(diagnostic.code))::"
        output += escapeData(message) + "\n"
      }
      output += file.summary + "\n"
    }
    return output
  }

  /// `path` as GitHub matches it to a file of the repository: without leading `./`, and
  /// relative to `workspace` when it is inside it. Other paths and URLs are left as they are.
  static func annotationPath(_ path: String, workspace: String?) -> String {
    var path = Substring(path)
    if let workspace, !workspace.isEmpty, path.hasPrefix("/") {
      let root = workspace.hasSuffix("/") ? workspace : workspace + "/"
      if path.hasPrefix(root) { path = path.dropFirst(root.count) }
    }
    while path.hasPrefix("./") {
      path = path.dropFirst(2).drop { $0 == "/" }
    }
    return String(path)
  }

  static func escapeData(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  static func escapeProperty(_ text: String) -> String {
    escapeData(text)
      .replacingOccurrences(of: ":", with: "%3A")
      .replacingOccurrences(of: ",", with: "%2C")
  }
}
