/// The texts the parser found for each row of a table, by row name, in command-line order
/// (an option's environment variable counts as one occurrence).
///
/// Commands never see this: they read their typed properties, which ``ParameterTable`` fills
/// from it.
struct ParsedValues: Sendable {
  private var given: [String: [String]]

  init(_ given: [String: [String]] = [:]) {
    self.given = given
  }

  /// Every text given for the row named `name`; empty when it was not given.
  func texts(for name: String) -> [String] {
    given[name] ?? []
  }
}
