/// A flag, `--name` alone: true when given, false otherwise. Declared once as a property.
///
/// ```swift
/// @Flag(help: "Fail on warnings too.")
/// var strict: Bool
/// ```
///
/// The name is the property's name in kebab case (`allowRemoved` is `--allow-removed`) unless
/// `name` says otherwise. `--strict=yes` is a usage error.
@propertyWrapper
public struct Flag: Sendable, ParameterDeclaration {
  let spec: ParameterSpec
  private let storage = ParameterStorage<Bool>(false)

  /// Whether the flag was given.
  public var wrappedValue: Bool { storage.value ?? false }

  /// Declares a flag.
  public init(name: String? = nil, short: Character? = nil, help: String) {
    spec = ParameterSpec(kind: .flag, name: name, shortName: short, help: help)
  }

  func bind(_ texts: [String], row: Parameter) throws(CommandError) {
    storage.value = !texts.isEmpty
  }
}
