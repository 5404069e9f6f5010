import Foundation

/// The values parsed for one command, looked up by the names of its parameter table.
///
/// Looking up a name the table does not declare is a programming error and stops the process,
/// so a typo shows in the first test that runs the command.
public struct ParsedValues: Sendable {
  /// The table the values were parsed against.
  public let parameters: [Parameter]
  private var given: [String: [String]]

  /// Creates values for `parameters`; `given` maps a parameter name to its values in order.
  public init(parameters: [Parameter], given: [String: [String]] = [:]) {
    self.parameters = parameters
    self.given = given
  }

  /// The last value given for an option or argument, else its default, else nil.
  public func string(_ name: String) -> String? {
    let parameter = declared(name)
    return given[name]?.last ?? parameter.defaultValue
  }

  /// Every value given, in order (a repeating argument or a repeated option); empty when none.
  public func strings(_ name: String) -> [String] {
    _ = declared(name)
    return given[name] ?? []
  }

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool {
    _ = declared(name)
    return !(given[name] ?? []).isEmpty
  }

  /// Whether the parameter was given on the command line (or through its environment variable).
  public func wasGiven(_ name: String) -> Bool {
    _ = declared(name)
    return !(given[name] ?? []).isEmpty
  }

  /// A comma-separated option (`--languages en,de`), every occurrence joined, blanks dropped;
  /// nil when not given and without a default.
  public func list(_ name: String) -> [String]? {
    let parameter = declared(name)
    guard let values = given[name] ?? parameter.defaultValue.map({ [$0] }) else { return nil }
    return values.flatMap { $0.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// An integer option; a value that is not an integer is a validation error naming the option.
  public func int(_ name: String) throws(CommandError) -> Int? {
    let parameter = declared(name)
    guard let text = string(name) else { return nil }
    guard let value = Int(text) else {
      throw .validation("The value '\(text)' is invalid for '\(parameter.displayName)'.")
    }
    return value
  }

  private func declared(_ name: String) -> Parameter {
    guard let parameter = parameters.first(where: { $0.name == name }) else {
      preconditionFailure("parameter '\(name)' is not declared in the command's configuration")
    }
    return parameter
  }
}
