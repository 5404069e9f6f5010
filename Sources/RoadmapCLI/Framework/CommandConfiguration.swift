/// What a ``Command`` is called, what its help says and which subcommands it has.
///
/// What a command accepts is not listed here: it is declared by the command's own `@Option`,
/// `@Flag`, `@Argument` and `@OptionGroup` properties (see ``Command``).
public struct CommandConfiguration: Sendable {
  /// The name typed on the command line (`validate`).
  public var name: String
  /// One sentence for OVERVIEW and the parent's SUBCOMMANDS list.
  public var abstract: String
  /// Longer help shown after the overview; may be empty.
  public var discussion: String
  /// Subcommands, for groups such as `votes` (`votes export`, `votes import`).
  public var subcommands: [any Command.Type]

  /// Creates a configuration.
  public init(
    name: String,
    abstract: String,
    discussion: String = "",
    subcommands: [any Command.Type] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.subcommands = subcommands
  }

}
