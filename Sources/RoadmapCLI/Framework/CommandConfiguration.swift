/// What a ``Command`` is called, what its help says, what it accepts and which subcommands it has.
///
/// `parameters` is the single table that both the parser and the help text are built from.
/// Arguments are matched in the order they are declared; only the last one may repeat.
public struct CommandConfiguration: Sendable {
  /// The name typed on the command line (`validate`).
  public var name: String
  /// One sentence for OVERVIEW and the parent's SUBCOMMANDS list.
  public var abstract: String
  /// Longer help shown after the overview; may be empty.
  public var discussion: String
  /// The options, flags and positional arguments, in the order help lists them.
  public var parameters: [Parameter]
  /// Subcommands, for groups such as `votes` (`votes export`, `votes import`).
  public var subcommands: [any Command.Type]

  /// Creates a configuration.
  public init(
    name: String,
    abstract: String,
    discussion: String = "",
    parameters: [Parameter] = [],
    subcommands: [any Command.Type] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.parameters = parameters
    self.subcommands = subcommands
  }

  /// The positional arguments, in order.
  var arguments: [Parameter] { parameters.filter { $0.kind == .argument } }

  /// The options and flags, in order.
  var options: [Parameter] { parameters.filter { $0.kind != .argument } }
}
