import Foundation

/// Writes log lines to the process's standard error.
public enum StandardError {
  /// Writes `line` and a newline to stderr in one call.
  @Sendable public static func write(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
