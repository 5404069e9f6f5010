/// Codable conformance with the Roadmap package's key names; unknown keys go to `extra`.
///
/// Through a `Decoder` the order of unknown keys is whatever the decoder reports (Foundation's
/// keyed containers do not promise source order), and an unknown key whose value the decoder
/// cannot represent (`1e400`, a lone surrogate) is left out, since the Roadmap package decodes
/// the feature all the same; `RoadmapDocument.read` keeps the exact order and every value.
extension RoadmapFeature: Codable {
  /// Decodes a feature; `null` and a missing key both mean absent, unknown keys go to `extra`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    id = try container.decode(String.self, forKey: AnyCodingKey("id"))
    title = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("title"))
    status = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("status"))
    description = try container.decodeIfPresent(String.self, forKey: AnyCodingKey("description"))
    localizedTitle = try container.decodeIfPresent(
      [LocalizedValue].self, forKey: AnyCodingKey("localizedTitle"))
    localizedStatus = try container.decodeIfPresent(
      [LocalizedValue].self, forKey: AnyCodingKey("localizedStatus"))
    localizedDescription = try container.decodeIfPresent(
      [LocalizedValue].self, forKey: AnyCodingKey("localizedDescription"))
    votes = try container.decodeIfPresent(Int.self, forKey: AnyCodingKey("votes"))
    isFinished = try container.decodeIfPresent(Bool.self, forKey: AnyCodingKey("isFinished"))
    extra = try container.decodeMembers(except: FeatureKey.isKnown)
  }

  /// Encodes the known keys that are present, then the unknown keys.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(id, forKey: AnyCodingKey("id"))
    try container.encodeIfPresent(title, forKey: AnyCodingKey("title"))
    try container.encodeIfPresent(status, forKey: AnyCodingKey("status"))
    try container.encodeIfPresent(description, forKey: AnyCodingKey("description"))
    try container.encodeIfPresent(isFinished, forKey: AnyCodingKey("isFinished"))
    try container.encodeIfPresent(votes, forKey: AnyCodingKey("votes"))
    try container.encodeIfPresent(localizedTitle, forKey: AnyCodingKey("localizedTitle"))
    try container.encodeIfPresent(localizedStatus, forKey: AnyCodingKey("localizedStatus"))
    try container.encodeIfPresent(
      localizedDescription, forKey: AnyCodingKey("localizedDescription"))
    try container.encodeMembers(of: extra, except: FeatureKey.isKnown)
  }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
  /// The members whose keys are not `known`, as decoded (in the decoder's key order), but those
  /// whose values the decoder cannot represent.
  func decodeMembers(except known: (String) -> Bool) throws -> JSONObject {
    var members = JSONObject()
    for key in allKeys where !known(key.stringValue) {
      // The Roadmap package never reads these keys, so a value the decoder cannot represent
      // (`1e400`, `"\ud800"`, `"\q"`) must not fail the feature, as it would fail the whole
      // list: that member is left out instead.
      guard let value = try? decode(JSONValue.self, forKey: key) else { continue }
      members.members.append((key.stringValue, value))
    }
    return members
  }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
  /// Encodes the members of `object` whose keys are not `known`, in order.
  mutating func encodeMembers(of object: JSONObject, except known: (String) -> Bool) throws {
    for member in object.members where !known(member.key) {
      try encode(member.value, forKey: AnyCodingKey(member.key))
    }
  }
}

/// A coding key for any string.
struct AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  init?(stringValue: String) {
    self.init(stringValue)
  }

  init?(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}
