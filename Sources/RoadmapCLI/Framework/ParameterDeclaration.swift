/// A property wrapper the framework can turn into a ``Parameter`` row and fill from parsed text.
protocol ParameterDeclaration: Sendable {
  /// The declaration, without the property's name.
  var spec: ParameterSpec { get }
  /// Converts, validates and stores the texts given for `row` (empty when it was not given).
  func bind(_ texts: [String], row: Parameter) throws(CommandError)
}
