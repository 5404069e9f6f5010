/// A command's parameter rows, read from its property wrappers, and the binding of parsed values
/// back into them.
///
/// This is the one table both ``CommandParser`` and ``HelpFormatter`` use, so parsing and help
/// cannot drift from the typed declarations.
struct ParameterTable: Sendable {
  private struct Entry: Sendable {
    var row: Parameter
    var declaration: any ParameterDeclaration
  }

  private let entries: [Entry]
  private let instances: [any ParsableArguments]

  /// Reads the declarations of `arguments`, including those of its `@OptionGroup`s, in order.
  init(_ arguments: any ParsableArguments) {
    var entries: [Entry] = []
    var instances: [any ParsableArguments] = []
    Self.collect(arguments, into: &entries, instances: &instances)
    self.entries = entries
    self.instances = instances
  }

  private static func collect(
    _ arguments: any ParsableArguments,
    into entries: inout [Entry],
    instances: inout [any ParsableArguments]
  ) {
    for child in Mirror(reflecting: arguments).children {
      if let declaration = child.value as? any ParameterDeclaration {
        let label = String((child.label ?? "").drop(while: { $0 == "_" }))
        entries.append(Entry(row: declaration.spec.row(label: label), declaration: declaration))
      } else if let group = child.value as? any ParameterGroupDeclaration {
        collect(group.arguments, into: &entries, instances: &instances)
      }
    }
    instances.append(arguments)
  }

  /// Every row, in declaration order.
  var rows: [Parameter] { entries.map(\.row) }

  /// The positional arguments, in order.
  var arguments: [Parameter] { rows.filter { $0.kind == .argument } }

  /// The options and flags, in order.
  var options: [Parameter] { rows.filter { $0.kind != .argument } }

  /// Converts and stores every row's parsed texts, in declaration order, then runs the
  /// groups' and the command's `validate()`.
  func bind(_ values: ParsedValues) throws {
    for entry in entries {
      try entry.declaration.bind(values.texts(for: entry.row.name), row: entry.row)
    }
    for instance in instances {
      try instance.validate()
    }
  }
}
