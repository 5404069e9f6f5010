/// A positional argument, declared once as a typed property of a command.
///
/// Arguments are matched in the order they are declared; only the last may be a list.
///
/// ```swift
/// @Argument(help: "A file, an http(s) URL, or - for standard input.")
/// var file: String                // required
///
/// @Argument(help: "The export to load; '-' reads standard input.")
/// var file: String = "-"          // optional, with a default
///
/// @Argument(help: "Files, http(s) URLs, or - for standard input.")
/// var inputs: [String]            // zero or more; takes every remaining value
/// ```
///
/// The name shown in help (`<file>`) is the property's name in kebab case unless `name` says
/// otherwise. A value that does not convert is a usage error; `validate` returns a message for
/// one that converts but is not acceptable.
@propertyWrapper
public struct Argument<Value: Sendable>: Sendable, ParameterDeclaration {
  let spec: ParameterSpec
  private let storage: ParameterStorage<Value>
  private let convert: @Sendable ([String], Parameter) throws(CommandError) -> Value

  /// The parsed value (before parsing: the default).
  public var wrappedValue: Value {
    guard let value = storage.value else {
      preconditionFailure("the required argument '\(spec.name ?? "?")' was read before parsing")
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

extension Argument where Value: ExpressibleByArgument {
  /// A required argument.
  public init(
    name: String? = nil, help: String, validate: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      spec: ParameterSpec(
        kind: .argument, name: name, help: help, allowedValues: Value.allValueStrings,
        isRequired: true),
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

  /// An optional argument with a default.
  public init(
    wrappedValue: Value, name: String? = nil, help: String,
    validate: (@Sendable (Value) -> String?)? = nil
  ) {
    self.init(
      spec: ParameterSpec(
        kind: .argument, name: name, help: help,
        defaultDescription: wrappedValue.defaultValueDescription,
        allowedValues: Value.allValueStrings),
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
}

extension Argument {
  /// An optional argument: nil when not given.
  public init<Wrapped: ExpressibleByArgument>(
    name: String? = nil, help: String, validate: (@Sendable (Wrapped) -> String?)? = nil
  ) where Value == Wrapped? {
    self.init(
      spec: ParameterSpec(
        kind: .argument, name: name, help: help, allowedValues: Wrapped.allValueStrings),
      initial: .some(nil)
    ) { texts, row throws(CommandError) in
      guard let text = texts.last else { return nil }
      let value: Wrapped = try ValueConversion.convert(text, for: row)
      try ValueConversion.check(value, with: validate)
      return value
    }
  }

  /// Zero or more values: every remaining positional value (the last argument only).
  public init<Element: ExpressibleByArgument>(
    name: String? = nil, help: String, validate: (@Sendable ([Element]) -> String?)? = nil
  ) where Value == [Element] {
    self.init(
      spec: ParameterSpec(
        kind: .argument, name: name, help: help, allowedValues: Element.allValueStrings,
        isRepeating: true),
      initial: []
    ) { texts, row throws(CommandError) in
      let values: [Element] = try ValueConversion.convertAll(texts, separator: nil, for: row)
      try ValueConversion.check(values, with: validate)
      return values
    }
  }
}
