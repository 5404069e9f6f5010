import Foundation

/// The one JSON configuration of the contract, used by the client and by the server alike.
///
/// Sorted keys, slashes unescaped, dates as ISO 8601 without fractions
/// (`2026-12-01T08:00:00Z`).
public enum VoteFirstCoding {
  /// A new encoder with the contract's settings.
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// A new decoder with the contract's settings.
  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom(decodeDate)
    return decoder
  }

  /// An ISO 8601 date, as `.iso8601` reads it; a string that is not one is an error at its
  /// own place (`releases[0].date`), where `.iso8601`'s has no place on every platform, so
  /// that a bad date read as a body that is not JSON at all.
  private static func decodeDate(_ decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = try? Date(text, strategy: .iso8601) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "expected a date written 2026-11-30T00:00:00Z, found \"\(text)\"")
    }
    return date
  }

  /// `value` as JSON bytes.
  public static func encode<T: Encodable>(_ value: T) throws -> Data {
    try makeEncoder().encode(value)
  }

  /// A `T` read from JSON bytes.
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try makeDecoder().decode(type, from: data)
  }

  /// The JSON path a decoding error points at (`features[3].title`), or nil at the top.
  public static func path(of error: DecodingError) -> String? {
    var path: [CodingKey]
    switch error {
    case .keyNotFound(let key, let context): path = context.codingPath + [key]
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      path = context.codingPath
    @unknown default: return nil
    }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text.isEmpty ? nil : text
  }

  /// What a document read with `JSONDecoder` got wrong, for a person: where
  /// (`at boards.projects[2].name: `, nothing at the top) and what was expected there,
  /// without the dump `"\(error)"` prints.
  public static func describe(_ error: DecodingError) -> String {
    let path = path(of: error)
    let place = path.map { "at \($0): " } ?? ""
    switch error {
    case .keyNotFound: return "'\(path ?? "")' is missing"
    case .typeMismatch(let type, _): return place + "expected \(jsonName(of: type))"
    case .valueNotFound(let type, _): return place + "expected \(jsonName(of: type)), found null"
    case .dataCorrupted(let context):
      return path == nil
        ? "not JSON (\(context.debugDescription))" : place + context.debugDescription
    @unknown default: return "\(error)"
    }
  }

  /// A type as a JSON document holds it: a string, a number, an array, an object.
  private static func jsonName(of type: Any.Type) -> String {
    return switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: "a number"
    default: "\(type)".hasPrefix("Array<") ? "an array" : "an object"
    }
  }
}
