import VoteFirstAPI

/// What a VoteFirst project holds before a migration or a reconciliation: the stages of its
/// roadmap board and its features, found by ref.
public struct BoardState: Sendable, Hashable {
  /// One feature already on the board.
  public struct ExistingFeature: Sendable, Hashable {
    /// The server's id.
    public var id: Int
    /// Its content.
    public var content: FeatureContent
    /// Its count (anonymous plus identified votes).
    public var votes: Int
    /// Its anonymous (imported) part, when known (an export says; a reader's listing does not).
    public var importedVotes: Int?

    /// Creates an existing feature.
    public init(id: Int, content: FeatureContent, votes: Int, importedVotes: Int? = nil) {
      self.id = id
      self.content = content
      self.votes = votes
      self.importedVotes = importedVotes
    }
  }

  /// Every stage, of every board.
  public var stages: [Stage]
  /// Every feature, in id order.
  public var features: [ExistingFeature]

  /// Creates a state.
  public init(stages: [Stage] = [], features: [ExistingFeature] = []) {
    self.stages = stages
    self.features = features.sorted { $0.id < $1.id }
  }

  /// The state an export document describes.
  public init(export: ProjectExport) {
    self.init(
      stages: export.stages,
      features: export.features.map {
        ExistingFeature(
          id: $0.feature.id, content: $0.feature.content, votes: $0.feature.votes,
          importedVotes: $0.importedVotes)
      })
  }

  /// One board of what an export document describes (its stages and the features on it), as
  /// a reader sees that board, with every feature's imported votes.
  public init(export: ProjectExport, board: String) {
    self.init(
      stages: export.stages.filter { $0.board == board },
      features: export.features.filter { $0.feature.content.board == board }.map {
        ExistingFeature(
          id: $0.feature.id, content: $0.feature.content, votes: $0.feature.votes,
          importedVotes: $0.importedVotes)
      })
  }

  /// A project with nothing in it.
  public static let empty = BoardState()

  /// The features with a ref, by ref (the first, should a ref come twice).
  public var featuresByRef: [String: ExistingFeature] {
    var result: [String: ExistingFeature] = [:]
    for feature in features {
      guard let ref = feature.content.ref, result[ref] == nil else { continue }
      result[ref] = feature
    }
    return result
  }

  /// ``featuresByRef``, and each feature of the roadmap board without a ref (or with one that
  /// cannot be a Roadmap id, ``RoadmapMapping/isCounterKeyID(_:)``) under the id `publish`
  /// writes for it (``RoadmapMapping/standInIDs(of:board:)``: `vf-` and its id, or `vf-ID-2`…
  /// where a feature has that ref): a roadmap published from the board and migrated back
  /// names it so.
  public var featuresByRefOrStandIn: [String: ExistingFeature] {
    var result = featuresByRef
    let standIns = RoadmapMapping.standInIDs(of: features.map { ($0.id, $0.content) })
    for feature in features {
      guard let standIn = standIns[feature.id], result[standIn] == nil else { continue }
      result[standIn] = feature
    }
    return result
  }

  /// The roadmap board's stage named `name`, if any.
  public func roadmapStage(named name: String) -> Stage? {
    stages.first { $0.board == Board.roadmapSlug && $0.name == name }
  }

  /// The features in the shape the VoteFirst → Roadmap mapping reads.
  public var wireFeatures: [Feature] {
    features.map {
      Feature(
        id: $0.id, content: $0.content, votes: $0.votes,
        createdAt: .init(timeIntervalSince1970: 0))
    }
  }
}
