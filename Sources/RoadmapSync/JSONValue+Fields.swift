import RoadmapFormat

extension JSONValue {
  /// A string field as JSON: the string, or null when absent.
  static func from(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  /// A boolean field as JSON.
  static func from(_ value: Bool?) -> JSONValue {
    value.map(JSONValue.bool) ?? .null
  }

  /// An integer field as JSON.
  static func from(_ value: Int?) -> JSONValue {
    value.map { .number(String($0)) } ?? .null
  }

  /// The field value a string or null stands for (`.some(nil)` for null), or nil for anything
  /// else.
  var optionalString: String?? {
    switch self {
    case .null: .some(nil)
    case .string(let text): .some(text)
    default: nil
    }
  }

  /// The field value a boolean or null stands for.
  var optionalBool: Bool?? {
    switch self {
    case .null: .some(nil)
    case .bool(let bool): .some(bool)
    default: nil
    }
  }

  /// The field value an integer or null stands for.
  var optionalInt: Int?? {
    switch self {
    case .null: .some(nil)
    case .number(let text): Int(text).map { .some($0) }
    default: nil
    }
  }
}
