/// One row of a command's parameter table: an option with a value, a flag, or a positional
/// argument, as the parser and the help formatter see it.
///
/// Rows are not written by hand: ``ParameterTable`` builds them from a command's `@Option`,
/// `@Flag`, `@Argument` and `@OptionGroup` properties, so parsing, help and the typed values
/// come from one declaration.
struct Parameter: Sendable, Hashable {
  /// What kind of parameter a row is.
  enum Kind: Sendable, Hashable {
    /// `--name value` or `--name=value`.
    case option
    /// `--name` alone: present or not.
    case flag
    /// A positional value.
    case argument
  }

  /// The kind of parameter.
  var kind: Kind
  /// The long name without dashes (`format`), or the argument's name (`inputs`).
  var name: String
  /// An optional one-letter name (`-f`).
  var shortName: Character?
  /// The placeholder shown in usage and help (`<format>`), without angle brackets.
  var valueName: String
  /// One or two sentences for help.
  var help: String
  /// How help shows the value used when the parameter is not given, if there is one.
  var defaultDescription: String?
  /// When not empty, the only values accepted; help lists them.
  var allowedValues: [String]
  /// Whether the parameter may be given more than once (`--tag a --tag b`, `FILE...`).
  var isRepeating: Bool
  /// Whether leaving it out is a usage error.
  var isRequired: Bool
  /// An environment variable read when the option is not on the command line.
  var environmentVariable: String?
  /// For a list option, the character between values in one occurrence (`en,de`).
  var separator: Character? = nil
  /// Whether `environmentVariable` set but empty is given as the value `""` (for the option's
  /// validation to refuse) rather than taken as unset.
  var emptyEnvironmentIsAValue = false

  /// How usage and error messages name it: `--format <format>`, `--strict`, `<inputs>`.
  var displayName: String {
    switch kind {
    case .option: return "--\(name) <\(valueName)>"
    case .flag: return "--\(name)"
    case .argument: return "<\(valueName)>"
    }
  }
}
