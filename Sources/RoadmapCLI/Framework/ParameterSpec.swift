/// What a property wrapper declares about its parameter before it knows its property's name.
///
/// ``ParameterTable`` completes it into a ``Parameter`` with the property's label
/// (`dataDir` becomes `--data-dir`) unless the declaration gives a `name`.
struct ParameterSpec: Sendable {
  var kind: Parameter.Kind
  var name: String?
  var shortName: Character?
  var valueName: String?
  var help: String
  var defaultDescription: String?
  var allowedValues: [String]
  var isRepeating: Bool
  var isRequired: Bool
  var environmentVariable: String?
  var separator: Character?
  /// Whether `environmentVariable` set to the empty string is a value (to be validated)
  /// rather than unset.
  var emptyEnvironmentIsAValue = false

  init(
    kind: Parameter.Kind, name: String?, shortName: Character? = nil, valueName: String? = nil,
    help: String, defaultDescription: String? = nil, allowedValues: [String] = [],
    isRepeating: Bool = false, isRequired: Bool = false, environmentVariable: String? = nil,
    separator: Character? = nil
  ) {
    self.kind = kind
    self.name = name
    self.shortName = shortName
    self.valueName = valueName
    self.help = help
    self.defaultDescription = defaultDescription
    self.allowedValues = allowedValues
    self.isRepeating = isRepeating
    self.isRequired = isRequired
    self.environmentVariable = environmentVariable
    self.separator = separator
  }

  /// The row, named by the declaration or else by `label` in kebab case.
  func row(label: String) -> Parameter {
    let name = self.name ?? Self.kebabCase(label)
    return Parameter(
      kind: kind, name: name, shortName: shortName, valueName: valueName ?? name, help: help,
      defaultDescription: defaultDescription, allowedValues: allowedValues,
      isRepeating: isRepeating, isRequired: isRequired, environmentVariable: environmentVariable,
      separator: separator, emptyEnvironmentIsAValue: emptyEnvironmentIsAValue)
  }

  /// `dataDir` → `data-dir`, `corsURL` → `cors-url`, `http2Port` → `http2-port`.
  static func kebabCase(_ label: String) -> String {
    let characters = Array(label)
    var result = ""
    for (index, character) in characters.enumerated() {
      if character.isUppercase, index > 0 {
        let previous = characters[index - 1]
        let next = index + 1 < characters.count ? characters[index + 1] : nil
        if !previous.isUppercase || (next?.isLowercase ?? false) { result.append("-") }
      }
      result += character.lowercased()
    }
    return result
  }
}
