/// A value bound to a statement parameter.
enum SQLiteValue: Sendable, Equatable {
  case integer(Int64)
  case text(String)
  case null
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
  init(integerLiteral value: Int64) { self = .integer(value) }
  init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue {
  /// An integer, or NULL for nil.
  static func optional(_ value: Int64?) -> SQLiteValue {
    value.map { .integer($0) } ?? .null
  }

  /// 1 or 0.
  static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}
