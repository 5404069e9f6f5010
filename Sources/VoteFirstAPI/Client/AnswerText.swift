import Foundation

/// How an answer a client could not use is described in its error messages; shared with
/// FeatureVoting's voters.
package enum AnswerText {
  /// A short description of `data` for messages: "an empty body", "an HTML page (Title)", or
  /// the start of the text on one line.
  package static func excerpt(_ data: Data) -> String {
    let trimmed = String(decoding: data, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return "an empty body" }
    if trimmed.hasPrefix("<") {
      if let open = trimmed.range(of: "<title>", options: .caseInsensitive),
        let close = trimmed.range(
          of: "</title>", options: .caseInsensitive, range: open.upperBound..<trimmed.endIndex)
      {
        let title = trimmed[open.upperBound..<close.lowerBound]
          .trimmingCharacters(in: .whitespacesAndNewlines)
        return "an HTML page (\(title))"
      }
      return "an HTML page"
    }
    let flat = trimmed.split(whereSeparator: \.isNewline).joined(separator: " ")
    return flat.count > 200 ? String(flat.prefix(200)) + "…" : flat
  }

  /// What was wrong with JSON that did not decode, in a few words with where it was
  /// (`no "votes" at features.0`), or nil when the error is not a `DecodingError` about the
  /// JSON's shape.
  package static func shapeProblem(_ error: any Error) -> String? {
    guard let error = error as? DecodingError else { return nil }
    func place(_ path: [any CodingKey]) -> String {
      path.isEmpty
        ? "the top level"
        : path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "no \"\(key.stringValue)\" at \(place(context.codingPath))"
    case .typeMismatch(let type, let context):
      return "\(place(context.codingPath)) is not \(Self.name(of: type))"
    case .valueNotFound(let type, let context):
      return "\(place(context.codingPath)) is null, not \(Self.name(of: type))"
    case .dataCorrupted(let context):
      // JSONDecoder's own reading failure has no path: the text is not JSON at all.
      return context.codingPath.isEmpty
        ? nil : "\(place(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return nil
    }
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type, is Int64.Type: "an integer"
    case is Bool.Type: "a boolean"
    case is Double.Type: "a number"
    default: "\(type)"
    }
  }
}
