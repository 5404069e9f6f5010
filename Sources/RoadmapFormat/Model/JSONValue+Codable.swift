import Foundation

/// Codable conformance, so unknown keys also survive `JSONEncoder`/`JSONDecoder`.
///
/// Through a `Decoder`, numbers are read as integers when they are exact and as doubles
/// otherwise; the exact source text is only kept by `RoadmapDocument.read`.
extension JSONValue: Codable {
  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
      var object = JSONObject()
      for key in container.allKeys {
        object.members.append((key.stringValue, try container.decode(JSONValue.self, forKey: key)))
      }
      self = .object(object)
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      var array: [JSONValue] = []
      while !container.isAtEnd {
        array.append(try container.decode(JSONValue.self))
      }
      self = .array(array)
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let int = try? container.decode(Int64.self) {
      self = .number(String(int))
    } else if let double = try? container.decode(Double.self) {
      self = .number(String(double))
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  /// Encodes the value; numbers are written from their text.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let bool):
      var container = encoder.singleValueContainer()
      try container.encode(bool)
    case .number(let text):
      var container = encoder.singleValueContainer()
      if let int = Int64(text) {
        try container.encode(int)
      } else if let decimal = Decimal(string: text) {
        try container.encode(decimal)
      } else {
        try container.encode(Double(text) ?? 0)
      }
    case .string(let string):
      var container = encoder.singleValueContainer()
      try container.encode(string)
    case .array(let array):
      var container = encoder.unkeyedContainer()
      for element in array {
        try container.encode(element)
      }
    case .object(let object):
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for member in object.members {
        try container.encode(member.value, forKey: AnyCodingKey(member.key))
      }
    }
  }
}
