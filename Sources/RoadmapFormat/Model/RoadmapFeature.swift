/// One feature of a roadmap, with every field of the Roadmap JSON format.
///
/// Only `id` is required. `nil` means the key was absent (or `null`, which the Roadmap package
/// reads the same way). Keys the format does not define are kept in `extra`, in source order,
/// and written back unchanged.
public struct RoadmapFeature: Sendable, Hashable {
  /// The feature's identifier; also the suffix of its vote counter key (`feature` + id).
  public var id: String
  /// The plain (unlocalized) title.
  public var title: String?
  /// The plain (unlocalized) status, such as `planned` or `finished`.
  public var status: String?
  /// The plain (unlocalized) description.
  public var description: String?
  /// Translations of the title.
  public var localizedTitle: [LocalizedValue]?
  /// Translations of the status.
  public var localizedStatus: [LocalizedValue]?
  /// Translations of the description.
  public var localizedDescription: [LocalizedValue]?
  /// A vote count shown instead of fetching one.
  public var votes: Int?
  /// Whether the feature is done; nil when absent (the Roadmap package reads absent as false).
  public var isFinished: Bool?
  /// Keys the format does not define, in their original order. A member named like a field of
  /// the format (`title`, `votes`) is not written: the field is.
  public var extra: JSONObject

  /// Creates a feature.
  ///
  /// - Parameters:
  ///   - id: the identifier, required.
  ///   - title: the plain title.
  ///   - status: the plain status.
  ///   - description: the plain description.
  ///   - localizedTitle: translations of the title.
  ///   - localizedStatus: translations of the status.
  ///   - localizedDescription: translations of the description.
  ///   - votes: a vote count to show instead of fetching one.
  ///   - isFinished: whether the feature is done.
  ///   - extra: unknown keys to keep.
  public init(
    id: String, title: String? = nil, status: String? = nil, description: String? = nil,
    localizedTitle: [LocalizedValue]? = nil, localizedStatus: [LocalizedValue]? = nil,
    localizedDescription: [LocalizedValue]? = nil, votes: Int? = nil, isFinished: Bool? = nil,
    extra: JSONObject = JSONObject()
  ) {
    self.id = id
    self.title = title
    self.status = status
    self.description = description
    self.localizedTitle = localizedTitle
    self.localizedStatus = localizedStatus
    self.localizedDescription = localizedDescription
    self.votes = votes
    self.isFinished = isFinished
    self.extra = extra
  }
}
