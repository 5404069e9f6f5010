import VoteFirstAPI

/// How Roadmap statuses become VoteFirst stages, when the defaults (one stage per status, in
/// the order statuses are first seen) are not what the owner wants.
///
/// Written as JSON (``read(_:)``):
///
///     {
///       "stages": [
///         {"name": "Planned", "statuses": ["planned", "Planned"], "color": "#3366FF"},
///         {"name": "Shipped", "statuses": ["done", "Available "], "isFinished": true},
///         {"name": "Archive", "statuses": ["dropped"], "isArchived": true}
///       ],
///       "finishedStage": "Shipped"
///     }
///
/// The stages listed are created in the order listed, each gathering the statuses it names
/// (compared exactly, then with surrounding white space trimmed); statuses it does not name get
/// a stage of their own after them, in first-seen order.
public struct StatusMap: Sendable, Hashable {
  /// One stage the map asks for.
  public struct StageRule: Sendable, Hashable {
    /// The stage's name, 1–254 characters.
    public var name: String
    /// The Roadmap statuses that land in it.
    public var statuses: [String]
    /// Whether the stage is finished; nil: finished when every feature in it is.
    public var isFinished: Bool?
    /// Whether it is the archived stage.
    public var isArchived: Bool
    /// Whether features in it can be voted on.
    public var votingEnabled: Bool
    /// Its colour.
    public var color: ThemeColor?

    /// Creates a rule.
    public init(
      name: String, statuses: [String] = [], isFinished: Bool? = nil, isArchived: Bool = false,
      votingEnabled: Bool = true, color: ThemeColor? = nil
    ) {
      self.name = name
      self.statuses = statuses
      self.isFinished = isFinished
      self.isArchived = isArchived
      self.votingEnabled = votingEnabled
      self.color = color
    }
  }

  /// The default name of the finished stage that finished features go to when their status's
  /// stage is not finished (or they have no status).
  public static let defaultFinishedStage = "Finished"

  /// The stages asked for, in order.
  public var stages: [StageRule]
  /// Where finished features go when their status's stage is not finished.
  public var finishedStage: String

  /// Creates a map; the empty map gives the defaults.
  public init(stages: [StageRule] = [], finishedStage: String = StatusMap.defaultFinishedStage) {
    self.stages = stages
    self.finishedStage = finishedStage
  }

  /// The rule a status falls under: the one naming it exactly, else the one naming it trimmed.
  func rule(forStatus status: String) -> StageRule? {
    if let rule = stages.first(where: { $0.statuses.contains(status) }) { return rule }
    let trimmed = StatusMap.trimmed(status)
    return stages.first { rule in rule.statuses.contains { StatusMap.trimmed($0) == trimmed } }
  }

  /// The rules by status and by stage name, found once for a whole roadmap: a scan of every
  /// rule per feature was quadratic once a rerun learned a stage per status from the board
  /// (``RoadmapMapping/statusMap(learningFrom:)``).
  struct Index {
    private let stages: [StageRule]
    private var exact: [String: Int] = [:]
    private var trimmed: [String: Int] = [:]
    private var named: [String: Int] = [:]

    /// Indexes `map`'s rules.
    init(_ map: StatusMap) {
      stages = map.stages
      for (index, rule) in map.stages.enumerated() {
        if named[rule.name] == nil { named[rule.name] = index }
        for status in rule.statuses {
          if exact[status] == nil { exact[status] = index }
          let key = StatusMap.trimmed(status)
          if trimmed[key] == nil { trimmed[key] = index }
        }
      }
    }

    /// What ``StatusMap/rule(forStatus:)`` gives.
    func rule(forStatus status: String) -> StageRule? {
      guard let index = exact[status] ?? trimmed[StatusMap.trimmed(status)] else { return nil }
      return stages[index]
    }

    /// The first rule of the stage named `name`.
    func rule(named name: String) -> StageRule? {
      named[name].map { stages[$0] }
    }
  }

  /// `text` without white space (and line breaks) at either end.
  static func trimmed(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars[...]
    while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }
}
