import Foundation

// Foundation only, so Fuzz/run.sh compiles this file into the Roadmap fuzz target too.

/// The mirror of AvdLee/Roadmap's model as the app decodes it (synthesized Codable, plain
/// JSONDecoder), written from the documented facts in COMPAT.md, for differential tests. The
/// one mirror the test targets and the fuzz target share.
public struct UpstreamFeature: Codable, Equatable, Sendable {
  /// One `{"language", "value"}` item of a localized array.
  public struct Localized: Codable, Equatable, Sendable {
    /// The language key.
    public var language: String
    /// The text in that language.
    public var value: String

    /// An item.
    public init(language: String, value: String) {
      self.language = language
      self.value = value
    }
  }
  /// The feature's id.
  public var id: String
  /// Its title.
  public var title: String?
  /// Its status.
  public var status: String?
  /// Its description.
  public var description: String?
  /// Whether it is finished.
  public var isFinished: Bool?
  /// Its votes.
  public var votes: Int?
  /// Its titles per language.
  public var localizedTitle: [Localized]?
  /// Its statuses per language.
  public var localizedStatus: [Localized]?
  /// Its descriptions per language.
  public var localizedDescription: [Localized]?

  /// A feature; every field but the id may be left out.
  public init(
    id: String, title: String? = nil, status: String? = nil, description: String? = nil,
    isFinished: Bool? = nil, votes: Int? = nil, localizedTitle: [Localized]? = nil,
    localizedStatus: [Localized]? = nil, localizedDescription: [Localized]? = nil
  ) {
    self.id = id
    self.title = title
    self.status = status
    self.description = description
    self.isFinished = isFinished
    self.votes = votes
    self.localizedTitle = localizedTitle
    self.localizedStatus = localizedStatus
    self.localizedDescription = localizedDescription
  }

  /// The Roadmap package's resolution for one localization key.
  public func resolved(_ language: String) -> (
    title: String, status: String?, description: String
  ) {
    (
      localizedTitle?.first { $0.language == language }?.value ?? title ?? "N/A",
      localizedStatus?.first { $0.language == language }?.value ?? status,
      localizedDescription?.first { $0.language == language }?.value ?? description ?? ""
    )
  }
}

/// The features Foundation's JSONDecoder (what the app uses) reads from `bytes`, or nil when it
/// rejects them.
public func upstreamDecodes(_ bytes: [UInt8]) -> [UpstreamFeature]? {
  try? JSONDecoder().decode([UpstreamFeature].self, from: Data(bytes))
}
