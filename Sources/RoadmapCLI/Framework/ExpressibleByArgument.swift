/// A type an option or argument value can be read as: `--port 8080` as `Int`, `--format json`
/// as an enum.
///
/// `String`, `Int` and `Double` conform. An enum whose raw values are strings conforms by
/// declaring it, and then only its raw values are accepted (help lists them):
///
/// ```swift
/// enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
///   case human, json, github
/// }
/// ```
public protocol ExpressibleByArgument: Sendable {
  /// Reads a value from the command line; nil when `argument` is not a valid value.
  init?(argument: String)

  /// How help shows this value as a default (`(default: 8080)`).
  var defaultValueDescription: String { get }

  /// When not empty, the only values accepted, in the order help lists them.
  static var allValueStrings: [String] { get }
}

extension ExpressibleByArgument {
  /// The value as `String(describing:)` writes it.
  public var defaultValueDescription: String { String(describing: self) }

  /// Any value that ``init(argument:)`` reads is accepted.
  public static var allValueStrings: [String] { [] }
}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
  /// Reads one of the raw values, exactly.
  public init?(argument: String) {
    self.init(rawValue: argument)
  }

  /// The raw value.
  public var defaultValueDescription: String { rawValue }

  /// Every raw value, in declaration order.
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension String: ExpressibleByArgument {
  /// Any text, as given.
  public init?(argument: String) {
    self = argument
  }
}

extension Int: ExpressibleByArgument {
  /// A decimal integer, optionally signed (`-1`).
  public init?(argument: String) {
    self.init(argument, radix: 10)
  }
}

extension Double: ExpressibleByArgument {
  /// A decimal number (`0.5`, `-2`, `1e3`); not `nan` or infinities.
  public init?(argument: String) {
    guard let value = Double(argument), value.isFinite else { return nil }
    self = value
  }
}
