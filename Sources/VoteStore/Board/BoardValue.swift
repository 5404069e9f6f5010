/// A value bound to, or read from, the board tables: the three kinds of column they hold.
public enum BoardValue: Sendable, Hashable {
  /// An integer.
  case integer(Int64)
  /// Text.
  case text(String)
  /// SQL NULL.
  case null

  /// The integer, or nil for NULL or text that is not one.
  public var integer: Int64? {
    switch self {
    case .integer(let value): value
    case .text(let text): Int64(text)
    case .null: nil
    }
  }

  /// The text, or nil for NULL.
  public var text: String? {
    switch self {
    case .integer(let value): String(value)
    case .text(let text): text
    case .null: nil
    }
  }

  /// An integer, or NULL for nil.
  static func optional(_ value: Int64?) -> BoardValue { value.map { .integer($0) } ?? .null }

  /// Text, or NULL for nil.
  static func optional(_ value: String?) -> BoardValue { value.map { .text($0) } ?? .null }
}
