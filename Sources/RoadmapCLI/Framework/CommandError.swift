/// An error a command throws to end with a message and an exit code.
///
/// `usage` and `validation` errors print `Error: …` and then `Usage: …` to standard error and exit
/// with 64 (EX_USAGE), as swift-argument-parser does; `failure` prints `Error: …` and exits with
/// its code (1 unless given). Kinds are static members so new ones break no caller.
public struct CommandError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure, which decides the output and the exit code.
  public struct Kind: Sendable, Hashable {
    private let code: Int
    /// The command line is wrong: an unknown option, a missing value, an extra argument.
    public static let usage = Kind(code: 1)
    /// The values parsed but do not make sense together (`--allow-removed` without `--previous`).
    public static let validation = Kind(code: 2)
    /// The command could not do its job: an unreadable file, a network failure.
    public static let failure = Kind(code: 3)
    /// Help was asked for: printed to standard output, exit 0.
    public static let helpRequest = Kind(code: 4)
  }

  /// The kind of error.
  public var kind: Kind
  /// What went wrong, for a person; printed after `Error: `.
  public var message: String
  /// The exit code the process ends with.
  public var exitCode: Int32

  /// A command line that cannot be parsed (exit 64).
  public static func usage(_ message: String) -> CommandError {
    CommandError(kind: .usage, message: message, exitCode: 64)
  }

  /// Values that parse but are not acceptable (exit 64).
  public static func validation(_ message: String) -> CommandError {
    CommandError(kind: .validation, message: message, exitCode: 64)
  }

  /// A failure that is not the command line's fault (exit 1 unless given).
  public static func failure(_ message: String, exitCode: Int32 = 1) -> CommandError {
    CommandError(kind: .failure, message: message, exitCode: exitCode)
  }

  /// Show the help of the command being run, to standard output, and exit 0.
  public static let helpRequested = CommandError(kind: .helpRequest, message: "", exitCode: 0)

  /// The message.
  public var description: String { message }

  /// Whether the error prints the usage line after the message.
  var showsUsage: Bool { kind == .usage || kind == .validation }
}
