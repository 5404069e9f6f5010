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

  /// A localized field as JSON: its items as Roadmap JSON writes them, or null when absent.
  static func from(_ items: [LocalizedValue]?) -> JSONValue {
    items.map { .array($0.map(JSONValue.item)) } ?? .null
  }

  /// One localized item as Roadmap JSON writes it: `language`, `value`, then its other keys.
  static func item(_ item: LocalizedValue) -> JSONValue {
    var object = JSONObject([("language", .string(item.language)), ("value", .string(item.value))])
    object.members += item.extra.members.filter { !LocalizedValue.isField($0.key) }
    return .object(object)
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

  /// The localized field an array of `{"language", "value", …}` items or null stands for.
  var optionalLocalized: [LocalizedValue]?? {
    switch self {
    case .null: return .some(nil)
    case .array(let elements):
      var items: [LocalizedValue] = []
      for element in elements {
        guard case .object(let object) = element, case .string(let language)? = object["language"],
          case .string(let value)? = object["value"]
        else { return nil }
        let extra = object.members.filter { !LocalizedValue.isField($0.key) }
        items.append(LocalizedValue(language: language, value: value, extra: JSONObject(extra)))
      }
      return .some(items)
    default: return nil
    }
  }
}
