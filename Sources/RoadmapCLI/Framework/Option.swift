/// An option that takes a value, `--name value` or `--name=value`, declared once as a typed
/// property of a command.
///
/// The declaration is the only place the option's name, type, default, help, validation and
/// environment variable are written; parsing, help and the value the command reads all come
/// from it. The name is the property's name in kebab case (`dataDir` is `--data-dir`) unless
/// `name` says otherwise.
///
/// ```swift
/// @Option(short: "p", help: "The TCP port; 0 picks a free one.",
///         validate: { (0...65535).contains($0) ? nil : "The port must be between 0 and 65535." })
/// var port: Int = 8080            // a default: optional on the command line
///
/// @Option(valueName: "old", help: "The version already published.")
/// var previous: String?           // no default: nil when not given
///
/// @Option(help: "Languages every feature must localize (en,de).")
/// var languages: [String]         // comma-separated and repeatable; [] when not given
///
/// @Option(help: "Where to send it.")
/// var destination: String         // neither default nor optional: required
/// ```
///
/// A value that does not convert to the type is a usage error naming the option; `validate`
/// returns a message for a value that converts but is not acceptable (also exit 64), or nil.
/// Given more than once, a single-valued option keeps its last value.
@propertyWrapper
public struct Option<Value: Sendable>: Sendable, ParameterDeclaration {
  let spec: ParameterSpec
  private let storage: ParameterStorage<Value>
  private let convert: @Sendable ([String], Parameter) throws(CommandError) -> Value

  /// The parsed value (before parsing: the default).
  public var wrappedValue: Value {
    guard let value = storage.value else {
      preconditionFailure("the required option '\(spec.name ?? "?")' was read before parsing")
    }
    return value
  }

  private init(
    spec: ParameterSpec, initial: Value?,
    convert: @escaping @Sendable ([String], Parameter) throws(CommandError) -> Value
  ) {
    self.spec = spec
    self.storage = ParameterStorage(initial)
    self.convert = convert
  }

  func bind(_ texts: [String], row: Parameter) throws(CommandError) {
    storage.value = try convert(texts, row)
  }
}

extension Option where Value: ExpressibleByArgument {
  /// An option with a default, used when it is given neither on the command line nor through
  /// `environment`.
  public init(
    wrappedValue: Value,
    name: String? = nil,
    short: Character? = nil,
    valueName: String? = nil,
    environment: String? = nil,
    help: String,
    validate: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      spec: ParameterSpec(
        kind: .option, name: name, shortName: short, valueName: valueName, help: help,
        defaultDescription: wrappedValue.defaultValueDescription,
        allowedValues: Value.allValueStrings, environmentVariable: environment),
      initial: wrappedValue
    ) { texts, row throws(CommandError) in
      let value: Value =
        try texts.last.map { text throws(CommandError) in
          try ValueConversion.convert(text, for: row)
        } ?? wrappedValue
      try ValueConversion.check(value, with: validate)
      return value
    }
  }

  /// A required option: leaving it out (and its `environment` variable unset) is a usage error.
  public init(
    name: String? = nil,
    short: Character? = nil,
    valueName: String? = nil,
    environment: String? = nil,
    help: String,
    validate: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      spec: ParameterSpec(
        kind: .option, name: name, shortName: short, valueName: valueName, help: help,
        allowedValues: Value.allValueStrings, isRequired: true, environmentVariable: environment),
      initial: nil
    ) { texts, row throws(CommandError) in
      guard let text = texts.last else {
        throw .usage("Missing expected argument '\(row.displayName)'.")
      }
      let value: Value = try ValueConversion.convert(text, for: row)
      try ValueConversion.check(value, with: validate)
      return value
    }
  }
}

extension Option {
  /// An option without a default: nil when it is not given.
  ///
  /// An `environment` variable set to the empty string counts as unset, unless
  /// `emptyEnvironmentIsAValue`: then it is the value `""`, which `validate` sees (to refuse
  /// it, say, where an empty value must not quietly mean "not given").
  public init<Wrapped: ExpressibleByArgument>(
    name: String? = nil,
    short: Character? = nil,
    valueName: String? = nil,
    environment: String? = nil,
    emptyEnvironmentIsAValue: Bool = false,
    help: String,
    validate: (@Sendable (Wrapped) -> String?)? = nil
  ) where Value == Wrapped? {
    var spec = ParameterSpec(
      kind: .option, name: name, shortName: short, valueName: valueName, help: help,
      allowedValues: Wrapped.allValueStrings, environmentVariable: environment)
    spec.emptyEnvironmentIsAValue = emptyEnvironmentIsAValue
    self.init(
      spec: spec,
      initial: .some(nil)
    ) { texts, row throws(CommandError) in
      guard let text = texts.last else { return nil }
      let value: Wrapped = try ValueConversion.convert(text, for: row)
      try ValueConversion.check(value, with: validate)
      return value
    }
  }

  /// A list option, `[]` when not given: every occurrence is kept, and each is split at
  /// `separator` (`--languages en,de --languages fr`), trimmed, blanks dropped. Pass
  /// `separator: nil` for values that may contain commas.
  public init<Element: ExpressibleByArgument>(
    name: String? = nil,
    short: Character? = nil,
    valueName: String? = nil,
    separator: Character? = ",",
    environment: String? = nil,
    help: String,
    validate: (@Sendable ([Element]) -> String?)? = nil
  ) where Value == [Element] {
    self.init(
      wrappedValue: [], name: name, short: short, valueName: valueName, separator: separator,
      environment: environment, help: help, validate: validate)
  }

  /// A list option with a default list, used when the option is not given at all.
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element],
    name: String? = nil,
    short: Character? = nil,
    valueName: String? = nil,
    separator: Character? = ",",
    environment: String? = nil,
    help: String,
    validate: (@Sendable ([Element]) -> String?)? = nil
  ) where Value == [Element] {
    let shown = wrappedValue.map(\.defaultValueDescription).joined(
      separator: separator.map(String.init) ?? " ")
    self.init(
      spec: ParameterSpec(
        kind: .option, name: name, shortName: short, valueName: valueName, help: help,
        defaultDescription: wrappedValue.isEmpty ? nil : shown,
        allowedValues: Element.allValueStrings, isRepeating: separator == nil,
        environmentVariable: environment, separator: separator),
      initial: wrappedValue
    ) { texts, row throws(CommandError) in
      let values: [Element] =
        texts.isEmpty
        ? wrappedValue : try ValueConversion.convertAll(texts, separator: separator, for: row)
      try ValueConversion.check(values, with: validate)
      return values
    }
  }
}
