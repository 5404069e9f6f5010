import RoadmapFormat
import VoteFirstAPI

/// How a Roadmap JSON and a VoteFirst project differ: features on one side only, fields that
/// differ (per language), status and finished flags, and vote counts that drifted.
///
/// Made without I/O (``make(roadmap:board:counts:mapping:)``); in sync when it holds nothing.
public struct ReconcilePlan: Sendable, Hashable {
  /// One field that differs.
  public struct FieldDifference: Sendable, Hashable {
    /// The field: `title`, `status`, `description`, `isFinished`, `localizedTitle`, …, or
    /// `extra.KEY`.
    public var field: String
    /// The language, for a localized field.
    public var language: String?
    /// The Roadmap JSON's value as JSON text (nil: absent).
    public var roadmap: String?
    /// VoteFirst's value as JSON text (nil: absent).
    public var voteFirst: String?
  }

  /// A feature on both sides whose fields differ.
  public struct FeatureDifference: Sendable, Hashable {
    /// The Roadmap id.
    public var ref: String
    /// The fields, in field order.
    public var fields: [FieldDifference]
  }

  /// A feature whose counts disagree.
  public struct VoteDrift: Sendable, Hashable {
    /// The Roadmap id.
    public var ref: String
    /// The Roadmap JSON's `votes`, when it has one.
    public var roadmap: Int?
    /// VoteFirst's count.
    public var voteFirst: Int
    /// The counting API's count, when one was read.
    public var counted: Int?
    /// The `votes` VoteFirst gives back as Roadmap JSON where that is not its count: a count
    /// the migration kept (such as -3) while VoteFirst still counts what it imported. What
    /// the JSON's `votes` is compared with; nil where that is the count.
    public var published: Int? = nil
    /// What the board last imported, where the counting API's count was compared with it
    /// (known from an admin export): votes cast on the board since are not drift, only votes
    /// the counting API has and the board has not taken in are. Nil where the count was
    /// compared with VoteFirst's count.
    public var imported: Int? = nil
  }

  /// Roadmap ids with no VoteFirst feature.
  public var onlyInRoadmap: [String]
  /// VoteFirst features with no Roadmap feature: their refs, or `#ID` without one.
  public var onlyOnVoteFirst: [String]
  /// Features whose fields differ.
  public var differences: [FeatureDifference]
  /// Features whose counts disagree.
  public var voteDrift: [VoteDrift]
  /// What could not be compared.
  public var losses: LossReport

  /// Whether the two sides agree.
  public var inSync: Bool {
    onlyInRoadmap.isEmpty && onlyOnVoteFirst.isEmpty && differences.isEmpty && voteDrift.isEmpty
  }

  /// Compares `roadmap` with the roadmap board of `board`; `counts` (by Roadmap id) are a
  /// counting API's, when read.
  public static func make(
    roadmap: [RoadmapFeature], board: BoardState, counts: [String: Int]? = nil,
    mapping: RoadmapMapping = RoadmapMapping()
  ) -> ReconcilePlan {
    let (mapped, losses) = mapping.roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .restoring)
    // By the Roadmap id each feature is mapped under: a feature without a ref (or with one
    // that cannot be a Roadmap id) is there under its stand-in, not its ref (it counted 0).
    let byID = board.featuresByRefOrStandIn
    let boardVotes = byID.mapValues(\.votes)
    let boardImported = byID.compactMapValues(\.importedVotes)
    var voteFirstByRef: [String: RoadmapFeature] = [:]
    for feature in mapped where voteFirstByRef[feature.id] == nil {
      voteFirstByRef[feature.id] = feature
    }
    let roadmapIDs = Set(roadmap.map(\.id))
    var onlyInRoadmap: [String] = []
    var differences: [FeatureDifference] = []
    var drift: [VoteDrift] = []
    for feature in roadmap {
      guard let other = voteFirstByRef[feature.id] else {
        onlyInRoadmap.append(feature.id)
        continue
      }
      let fields = compare(feature, other)
      if !fields.isEmpty { differences.append(FeatureDifference(ref: feature.id, fields: fields)) }
      let votes = boardVotes[feature.id] ?? 0
      let counted = counts?[feature.id]
      // The JSON's votes against what the board gives back for them (a count of -3 the
      // migration kept reads back as -3 while VoteFirst still counts 0).
      let givenBack = other.votes ?? 0
      let roadmapDrifts = feature.votes.map { $0 != givenBack } ?? false
      // A counting API's count against what the board took in from it, where known: the votes
      // cast on the board since are its own, not drift.
      let imported = counted == nil ? nil : boardImported[feature.id]
      let countDrifts = counted.map { $0 != (imported ?? votes) } ?? false
      if roadmapDrifts || countDrifts {
        drift.append(
          VoteDrift(
            ref: feature.id, roadmap: feature.votes, voteFirst: votes, counted: counted,
            published: givenBack == votes ? nil : givenBack, imported: imported))
      }
    }
    // A feature without a ref is there under its stand-in id, which no ref has
    // (``RoadmapMapping/standInIDs(of:board:)``).
    let onlyOnVoteFirst = mapped.filter { !roadmapIDs.contains($0.id) }.map(\.id)
    return ReconcilePlan(
      onlyInRoadmap: onlyInRoadmap, onlyOnVoteFirst: onlyOnVoteFirst, differences: differences,
      voteDrift: drift, losses: losses)
  }

  /// The Roadmap JSON that makes the Roadmap side match VoteFirst: the board's features with
  /// their counts, in the roadmap's order where they are in it, the others after it in
  /// VoteFirst's order; features only in the roadmap are left out.
  public static func roadmapMatchingBoard(
    roadmap: [RoadmapFeature], board: BoardState, mapping: RoadmapMapping = RoadmapMapping()
  ) -> (features: [RoadmapFeature], losses: LossReport) {
    let (mapped, losses) = mapping.roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .board)
    let order = Dictionary(
      roadmap.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
    let sorted = mapped.enumerated().sorted { left, right in
      switch (order[left.element.id], order[right.element.id]) {
      case (let l?, let r?): return l < r
      case (.some, nil): return true
      case (nil, .some): return false
      default: return left.offset < right.offset
      }
    }.map(\.element)
    return (sorted, losses)
  }

  /// The fields in which two features with the same id differ (votes apart).
  static func compare(_ roadmap: RoadmapFeature, _ voteFirst: RoadmapFeature)
    -> [FieldDifference]
  {
    var fields: [FieldDifference] = []
    func plain(_ name: String, _ a: String?, _ b: String?) {
      guard a != b else { return }
      fields.append(
        FieldDifference(
          field: name, roadmap: a.map { JSONValueText.text(of: .string($0)) },
          voteFirst: b.map { JSONValueText.text(of: .string($0)) }))
    }
    plain("title", roadmap.title, voteFirst.title)
    plain("status", roadmap.status, voteFirst.status)
    plain("description", roadmap.description, voteFirst.description)
    if (roadmap.isFinished ?? false) != (voteFirst.isFinished ?? false) {
      fields.append(
        FieldDifference(
          field: "isFinished", roadmap: String(roadmap.isFinished ?? false),
          voteFirst: String(voteFirst.isFinished ?? false)))
    }
    for (name, a, b) in [
      ("localizedTitle", roadmap.localizedTitle, voteFirst.localizedTitle),
      ("localizedStatus", roadmap.localizedStatus, voteFirst.localizedStatus),
      ("localizedDescription", roadmap.localizedDescription, voteFirst.localizedDescription),
    ] {
      // By language through dictionaries: a scan per language made 30,000 of them 46 s.
      let left = firsts(a ?? [])
      let right = firsts(b ?? [])
      let leftItems = Dictionary(uniqueKeysWithValues: left.map { ($0.language, $0) })
      let rightItems = Dictionary(uniqueKeysWithValues: right.map { ($0.language, $0) })
      let languages =
        left.map(\.language) + right.map(\.language).filter { leftItems[$0] == nil }
      for language in languages {
        let l = leftItems[language]
        let r = rightItems[language]
        guard l != r else { continue }
        // The texts; or, where only the item's other keys differ, the whole items.
        let whole = l?.value == r?.value
        func text(_ item: LocalizedValue?) -> String? {
          item.map {
            whole
              ? JSONValueText.text(of: .item($0))
              : JSONValueText.text(of: .string($0.value))
          }
        }
        fields.append(
          FieldDifference(field: name, language: language, roadmap: text(l), voteFirst: text(r)))
      }
    }
    let leftExtra = Self.firstValues(roadmap.extra)
    let rightExtra = Self.firstValues(voteFirst.extra)
    let keys =
      Self.firstKeys(roadmap.extra)
      + Self.firstKeys(voteFirst.extra).filter { leftExtra[$0] == nil }
    for key in keys {
      // The same value with its object's members in another order is no drift.
      if let l = leftExtra[key], let r = rightExtra[key], l.isSameValue(as: r) { continue }
      let l = leftExtra[key].map(JSONValueText.text(of:))
      let r = rightExtra[key].map(JSONValueText.text(of:))
      if l != r {
        fields.append(FieldDifference(field: "extra.\(key)", roadmap: l, voteFirst: r))
      }
    }
    return fields
  }

  /// Each key's first value (what `object[key]` reads), found once for all keys.
  private static func firstValues(_ object: JSONObject) -> [String: JSONValue] {
    Dictionary(object.members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
  }

  /// The keys in order, each once.
  private static func firstKeys(_ object: JSONObject) -> [String] {
    var seen = Set<String>()
    return object.keys.filter { seen.insert($0).inserted }
  }

  /// The first item of each language, as the Roadmap package picks them.
  private static func firsts(_ items: [LocalizedValue]) -> [LocalizedValue] {
    var seen = Set<String>()
    return items.filter { seen.insert($0.language).inserted }
  }
}
