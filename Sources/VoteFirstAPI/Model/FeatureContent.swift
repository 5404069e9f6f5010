/// Everything about a feature that its owner writes: the part of ``Feature`` an import or an
/// admin call sets.
public struct FeatureContent: Sendable, Hashable {
  /// The external reference: the Roadmap feature id it came from.
  public var ref: String?
  /// The title, 0–254 characters.
  public var title: String
  /// The description, 0–2000 characters.
  public var description: String
  /// The owner's response.
  public var response: String?
  /// The slug of its board.
  public var board: String
  /// Its stage's id.
  public var stage: Int?
  /// The month it is due, `YYYY-MM`.
  public var due: String?
  /// Its tags' ids, in order.
  public var tags: [Int]
  /// How many comments it has.
  public var comments: Int
  /// How many times it was viewed (served only when the project shows view counts).
  public var views: Int?
  /// Progress, 0–100.
  public var progress: Int?
  /// The id of the release it shipped in.
  public var release: Int?
  /// Its own status text, where it differs from its stage's name.
  public var status: String?
  /// Its own finished flag, where it differs from its stage's.
  public var isFinished: Bool?
  /// Per-language titles, in order.
  public var localizedTitle: [LocalizedText]?
  /// Per-language descriptions, in order.
  public var localizedDescription: [LocalizedText]?
  /// Per-language statuses, in order.
  public var localizedStatus: [LocalizedText]?
  /// Every other key its Roadmap JSON feature had, in order.
  public var extra: [ExtraMember]?

  /// Creates feature content; only the title is required.
  public init(
    ref: String? = nil, title: String, description: String = "", response: String? = nil,
    board: String = Board.roadmapSlug, stage: Int? = nil, due: String? = nil, tags: [Int] = [],
    comments: Int = 0, views: Int? = nil, progress: Int? = nil, release: Int? = nil,
    status: String? = nil, isFinished: Bool? = nil, localizedTitle: [LocalizedText]? = nil,
    localizedDescription: [LocalizedText]? = nil, localizedStatus: [LocalizedText]? = nil,
    extra: [ExtraMember]? = nil
  ) {
    self.ref = ref
    self.title = title
    self.description = description
    self.response = response
    self.board = board
    self.stage = stage
    self.due = due
    self.tags = tags
    self.comments = comments
    self.views = views
    self.progress = progress
    self.release = release
    self.status = status
    self.isFinished = isFinished
    self.localizedTitle = localizedTitle
    self.localizedDescription = localizedDescription
    self.localizedStatus = localizedStatus
    self.extra = extra
  }
}
