/// One row of a command's parameter table: an option with a value, a flag, or a positional argument.
///
/// Create rows with ``option(_:short:valueName:default:allowed:repeating:required:environment:help:)``,
/// ``flag(_:short:help:)`` and ``argument(_:repeating:required:help:)``. The same row decides how
/// the command line is parsed and what help shows, so they cannot disagree.
public struct Parameter: Sendable, Hashable {
  /// What kind of parameter a row is.
  public enum Kind: Sendable, Hashable {
    /// `--name value` or `--name=value`.
    case option
    /// `--name` alone: present or not.
    case flag
    /// A positional value.
    case argument
  }

  /// The kind of parameter.
  public var kind: Kind
  /// The long name without dashes (`format`), or the argument's name (`inputs`).
  public var name: String
  /// An optional one-letter name (`-f`).
  public var shortName: Character?
  /// The placeholder shown in usage and help (`<format>`), without angle brackets.
  public var valueName: String
  /// One or two sentences for help.
  public var help: String
  /// The value used when the parameter is not given (options only).
  public var defaultValue: String?
  /// When not empty, the only values accepted; help lists them.
  public var allowedValues: [String]
  /// Whether the parameter may be given more than once (`--tag a --tag b`, `FILE...`).
  public var isRepeating: Bool
  /// Whether leaving it out is a usage error.
  public var isRequired: Bool
  /// An environment variable read when the option is not on the command line.
  public var environmentVariable: String?

  /// An option that takes a value: `--name value` or `--name=value`.
  public static func option(
    _ name: String,
    short: Character? = nil,
    valueName: String? = nil,
    default defaultValue: String? = nil,
    allowed: [String] = [],
    repeating: Bool = false,
    required: Bool = false,
    environment: String? = nil,
    help: String
  ) -> Parameter {
    Parameter(
      kind: .option, name: name, shortName: short, valueName: valueName ?? name, help: help,
      defaultValue: defaultValue, allowedValues: allowed, isRepeating: repeating,
      isRequired: required, environmentVariable: environment)
  }

  /// A flag: `--name`, true when present.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> Parameter {
    Parameter(
      kind: .flag, name: name, shortName: short, valueName: name, help: help, defaultValue: nil,
      allowedValues: [], isRepeating: false, isRequired: false, environmentVariable: nil)
  }

  /// A positional argument; a repeating one (only the last) takes every remaining value.
  public static func argument(
    _ name: String,
    repeating: Bool = false,
    required: Bool = true,
    help: String
  ) -> Parameter {
    Parameter(
      kind: .argument, name: name, shortName: nil, valueName: name, help: help, defaultValue: nil,
      allowedValues: [], isRepeating: repeating, isRequired: required, environmentVariable: nil)
  }

  /// How usage and error messages name it: `--format <format>`, `--strict`, `<inputs>`.
  var displayName: String {
    switch kind {
    case .option: return "--\(name) <\(valueName)>"
    case .flag: return "--\(name)"
    case .argument: return "<\(valueName)>"
    }
  }
}
