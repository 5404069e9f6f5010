/// Parameters declared in a type of their own and shared by several commands (`--data-dir`
/// and `--postgres` for `serve`, `votes export` and `votes import`).
///
/// ```swift
/// struct StoreOptions: ParsableArguments {
///   @Option(valueName: "dir", help: "The data directory.")
///   var dataDir: String = "./data"
/// }
///
/// struct ExportCommand: Command {
///   @OptionGroup var store: StoreOptions
///   // self.store.dataDir
/// }
/// ```
///
/// The group's rows appear in help where the `@OptionGroup` property is declared, and its
/// ``ParsableArguments/validate()`` runs before the command's.
@propertyWrapper
public struct OptionGroup<Group: ParsableArguments>: Sendable, ParameterGroupDeclaration {
  /// The group, with its parsed values.
  public let wrappedValue: Group

  /// Declares the group.
  public init() {
    wrappedValue = Group()
  }

  var arguments: any ParsableArguments { wrappedValue }
}
