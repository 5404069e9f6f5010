/// A type whose stored properties declare parameters with `@Option`, `@Flag`, `@Argument` and
/// `@OptionGroup`: every ``Command``, and groups of options shared by several commands.
///
/// The framework creates it with `init()`, reads its declarations (in the order they are
/// written) for parsing and help, stores the parsed values into them, then calls
/// ``validate()``. Properties that are not wrapped are ignored.
public protocol ParsableArguments: Sendable {
  /// Creates the value with its declarations; the synthesized `init()` does.
  init()

  /// Checks the parsed values together, after each has been converted and validated on its
  /// own. Throw ``CommandError/validation(_:)`` (exit 64) for values that do not go together.
  func validate() throws
}

extension ParsableArguments {
  /// Accepts any combination.
  public func validate() throws {}
}
