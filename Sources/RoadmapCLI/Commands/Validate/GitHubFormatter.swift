import Foundation
import RoadmapFormat

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=code::message`, which
/// GitHub shows as annotations on the pull request, then a plain summary line per file.
///
/// Under `--strict` (`strict`), warnings fail the job, so they are `::error` annotations too.
///
/// Escaping follows GitHub's rules: in the message `%`, `\r`, `\n` become `%25`, `%0D`, `%0A`; in
/// property values `:` and `,` also become `%3A` and `%2C`.
enum GitHubFormatter {
  static func render(_ files: [ValidatedFile], strict: Bool = false) -> String {
    var output = ""
    for file in files {
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
        output += "::\(command) file=\(escapeProperty(file.displayPath)),line=\(diagnostic.line),"
        output += "col=\(diagnostic.column),title=\(escapeProperty(diagnostic.code))::"
        output += escapeData(message) + "\n"
      }
      output += file.summary + "\n"
    }
    return output
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
