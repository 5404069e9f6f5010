/// An `@OptionGroup`: a set of parameters declared in a type of their own.
protocol ParameterGroupDeclaration: Sendable {
  /// The group's arguments instance, whose wrappers are this command's too.
  var arguments: any ParsableArguments { get }
}
