import Foundation

/// What a running command gets besides its typed parameters: its output writers, standard
/// input, the environment and the working directory.
///
/// Commands use these instead of the process's globals, so tests can run them in-process with
/// captured output, their own environment and their own directory.
public struct CommandContext: Sendable {
  /// The command names from the root (`["roadmapctl", "votes", "export"]`).
  public internal(set) var commandPath: [String]
  /// Standard output.
  public var stdout: TextOutput
  /// Standard error.
  public var stderr: TextOutput
  /// Standard input, read when a command is given `-`.
  public var stdin: InputSource
  /// Environment variables.
  public var environment: [String: String]
  /// The directory relative paths are resolved against.
  public var workingDirectory: String

  /// Creates a context; the defaults are the process's own streams, environment and directory.
  public init(
    stdout: TextOutput = .standardOutput,
    stderr: TextOutput = .standardError,
    stdin: InputSource = .standardInput,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    workingDirectory: String = FileManager.default.currentDirectoryPath
  ) {
    self.commandPath = []
    self.stdout = stdout
    self.stderr = stderr
    self.stdin = stdin
    self.environment = environment
    self.workingDirectory = workingDirectory
  }

  /// The command as typed (`roadmapctl votes export`).
  public var commandName: String { commandPath.joined(separator: " ") }

  /// An absolute path for `path`, resolved against ``workingDirectory`` when relative.
  public func resolvePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    if path.hasPrefix("~") { return NSString(string: path).expandingTildeInPath }
    let base = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
    return URL(fileURLWithPath: base + path).standardizedFileURL.path
  }
}
