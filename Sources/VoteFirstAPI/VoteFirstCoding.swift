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
    decoder.dateDecodingStrategy = .iso8601
    return decoder
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
}
