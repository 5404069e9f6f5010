extension RelatedLocation {
  /// Which document a related place is in: the one the diagnostic is about, or the previous
  /// version it was compared with (`--previous`).
  ///
  /// A struct with static members rather than an enum, so more documents can be added without
  /// breaking callers that switch over them.
  public struct Document: Sendable, Hashable, Codable, CustomStringConvertible {
    private let code: String

    private init(code: String) {
      self.code = code
    }

    /// The document the diagnostic is about.
    public static let same = Document(code: "same")

    /// The previous version passed to `RoadmapValidator.validate(_:previous:)`.
    public static let previous = Document(code: "previous")

    /// `same` or `previous`.
    public var description: String { code }

    /// Reads `"same"` or `"previous"`.
    public init(from decoder: any Decoder) throws {
      let code = try decoder.singleValueContainer().decode(String.self)
      guard code == "same" || code == "previous" else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath, debugDescription: "unknown document '\(code)'"))
      }
      self.code = code
    }

    /// Writes `"same"` or `"previous"`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(code)
    }
  }
}
