/// One translation of a feature field: a language tag and the text in that language.
///
/// Roadmap JSON writes localized fields as arrays of `{"language": "de", "value": "Geplant"}`.
/// Other keys of an item (a translator's `"note"`, say) are kept in `extra`, in source order, and
/// written back unchanged; the Roadmap package ignores them.
public struct LocalizedValue: Sendable, Hashable {
  /// The language tag as written in the file, such as `en`, `de` or `zh-Hans`.
  public var language: String
  /// The text in that language.
  public var value: String
  /// Keys of the item other than `language` and `value`, in their original order. A member
  /// named `language` or `value` is not written: the field is.
  public var extra: JSONObject

  /// Creates a translation.
  ///
  /// - Parameters:
  ///   - language: the language tag, such as `pt-BR`.
  ///   - value: the text in that language.
  ///   - extra: other keys of the item to keep.
  public init(language: String, value: String, extra: JSONObject = JSONObject()) {
    self.language = language
    self.value = value
    self.extra = extra
  }

  /// Whether `key` is one of the item's own fields, which `extra` never writes.
  package static func isField(_ key: String) -> Bool {
    key == "language" || key == "value"
  }
}

/// Codable conformance with the Roadmap package's key names; other keys go to `extra`.
extension LocalizedValue: Codable {
  /// Decodes an item; keys other than `language` and `value` go to `extra`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    language = try container.decode(String.self, forKey: AnyCodingKey("language"))
    value = try container.decode(String.self, forKey: AnyCodingKey("value"))
    extra = try container.decodeMembers(except: Self.isField)
  }

  /// Encodes `language`, `value`, then the other keys.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(language, forKey: AnyCodingKey("language"))
    try container.encode(value, forKey: AnyCodingKey("value"))
    try container.encodeMembers(of: extra, except: Self.isField)
  }
}
