import Foundation
import VoteFirstAPI
import VoteStore

/// One project's committed board as the readers' calls need it, decoded once: settings,
/// boards, stages, tags, releases and features, the orders that do not depend on votes, and
/// the answers that do not depend on anything else, already encoded.
///
/// Vote counts are not in it (they change far more often than the board): a reader merges
/// them from the vote store at read time. A ``BoardView`` keeps one per project and replaces
/// it after every write to the project.
struct BoardModel: Sendable {
  /// One feature: its row, its content decoded, its JSON made once.
  struct Item: Sendable {
    var row: BoardFeatureRow
    var json: FeatureJSON
    /// On a public board.
    var isVisible: Bool
    /// In an archived stage.
    var isArchived: Bool

    var content: FeatureContent { json.value.content }
  }

  /// The rows of one project, read in one snapshot (decoding happens off the database thread).
  struct Rows: Sendable {
    var project: BoardProjectRow
    var boards: [BoardItemRow]
    var stages: [BoardItemRow]
    var tags: [BoardItemRow]
    var releases: [BoardItemRow]
    var features: [BoardFeatureRow]

    /// The rows of `project` on `tables`, or nil before its first admin call.
    static func read(_ tables: BoardTables, _ project: String) throws -> Rows? {
      guard let row = try tables.project(project) else { return nil }
      return Rows(
        project: row, boards: try tables.items(.board, project),
        stages: try tables.items(.stage, project), tags: try tables.items(.tag, project),
        releases: try tables.items(.release, project), features: try tables.features(project))
    }
  }

  /// What a listing filters and orders by, without a reference-counted field: a request
  /// reads these for every feature without touching the shared strings (whose reference
  /// counts concurrent requests on other cores would fight over).
  struct Facts: Sendable {
    var id: Int64
    /// The stage, or 0 for none (stage ids are positive).
    var stage: Int64
    var comments: Int64
    var createdAt: Int64
    /// Index of the feature's board in ``BoardModel/boardSlugs``.
    var board: Int
    var isVisible: Bool
    var isArchived: Bool
  }

  let project: BoardProject
  /// Aligned with ``items``.
  let facts: [Facts]
  /// Aligned with ``items``: each feature's counter key.
  let counterKeys: [String]
  /// The boards features are on, by first appearance; ``Facts/board`` indexes it.
  let boardSlugs: [String: Int]
  /// Newest first.
  let releases: [Release]
  /// By id.
  let items: [Item]
  /// Feature id → index in ``items``.
  let index: [Int64: Int]
  /// Stage id (0 for none) → indices of its features in ``items``, ascending: a listing of
  /// one stage (each column of the web board) reads only its own features.
  let byStage: [Int64: [Int]]
  /// Indices of ``items`` in `newest` order (created, most recent first; then id, highest).
  let newest: [Int]
  /// Indices of ``items`` in `discussed` order (comments, most first; then id).
  let discussed: [Int]
  /// Public board slug → the body of `GET …/board?board=SLUG`.
  let boardBodies: [String: Data]
  /// The body of `GET …/releases`.
  let releasesBody: Data
  /// Release id → the body of `GET …/releases/:id`.
  let releaseBodies: [Int: Data]
  /// The body of `GET …/settings`.
  let settingsBody: Data

  /// Decodes `rows`; features whose row is unchanged since `previous` keep its decoding.
  init(_ rows: Rows, previous: BoardModel? = nil) throws {
    let settings = try BoardJSON.decode(ProjectSettings.self, rows.project.settings)
    let boards = try rows.boards.map { try BoardJSON.decode(Board.self, $0.doc) }
    let stages = try rows.stages.map { try BoardJSON.decode(Stage.self, $0.doc) }
    let tags = try rows.tags.map { try BoardJSON.decode(FeatureTag.self, $0.doc) }
    let project = BoardProject(
      id: rows.project.project, settings: settings, createdAt: rows.project.createdAt,
      boards: boards, stages: stages.sorted { ($0.position, $0.id) < ($1.position, $1.id) },
      tags: tags)
    self.project = project
    releases = try rows.releases.map { try BoardJSON.decode(Release.self, $0.doc) }
      .sorted { ($0.date, $0.id) > ($1.date, $1.id) }

    let visible = Set(boards.filter(\.isPublic).map(\.slug))
    let archived = Set(stages.filter(\.isArchived).map { Int64($0.id) })
    let showViews = settings.showViewCounts
    let reusable = previous?.project.settings.showViewCounts == showViews ? previous : nil
    var items: [Item] = []
    items.reserveCapacity(rows.features.count)
    var index: [Int64: Int] = [:]
    index.reserveCapacity(rows.features.count)
    for row in rows.features.sorted(by: { $0.id < $1.id }) {
      let json: FeatureJSON
      if let reusable, let old = reusable.index[row.id].map({ reusable.items[$0] }),
        old.row == row
      {
        json = old.json
      } else {
        json = try FeatureJSON(
          BoardJSON.feature(row, votes: 0, voted: false, showViews: showViews))
      }
      index[row.id] = items.count
      items.append(
        Item(
          row: row, json: json, isVisible: visible.contains(row.board),
          isArchived: row.stage.map(archived.contains) ?? false))
    }
    self.items = items
    self.index = index
    var boardSlugs: [String: Int] = [:]
    facts = items.map { item in
      let board = boardSlugs[item.row.board] ?? boardSlugs.count
      boardSlugs[item.row.board] = board
      return Facts(
        id: item.row.id, stage: item.row.stage ?? 0, comments: item.row.comments,
        createdAt: item.row.createdAt, board: board, isVisible: item.isVisible,
        isArchived: item.isArchived)
    }
    self.boardSlugs = boardSlugs
    var byStage: [Int64: [Int]] = [:]
    for (position, facts) in facts.enumerated() {
      byStage[facts.stage, default: []].append(position)
    }
    self.byStage = byStage
    counterKeys = items.map(\.row.counterKey)
    newest = items.indices.sorted {
      (items[$0].row.createdAt, items[$0].row.id) > (items[$1].row.createdAt, items[$1].row.id)
    }
    discussed = items.indices.sorted {
      let (a, b) = (items[$0].row, items[$1].row)
      return a.comments != b.comments ? a.comments > b.comments : a.id < b.id
    }

    var boardBodies: [String: Data] = [:]
    for board in boards where board.isPublic {
      boardBodies[board.slug] = try VoteFirstCoding.encode(
        BoardSnapshot(
          project: project.id, settings: settings, board: board,
          stages: project.stages.filter { $0.board == board.slug }, tags: tags,
          boards: boards.filter { $0.isPublic && $0.slug != Board.roadmapSlug }))
    }
    self.boardBodies = boardBodies
    // Readers see the features of a release that they may see (on a public board).
    let readable = releases.map { release in
      VoteFirstContext.readable(release) { id in index[id].map { items[$0].isVisible } ?? false }
    }
    releasesBody = try VoteFirstCoding.encode(ReleaseList(releases: readable))
    var releaseBodies: [Int: Data] = [:]
    for release in readable { releaseBodies[release.id] = try VoteFirstCoding.encode(release) }
    self.releaseBodies = releaseBodies
    settingsBody = try VoteFirstCoding.encode(settings)
  }

  /// The feature `id` when readers may see it (it is on a public board).
  func visibleItem(_ id: Int64) -> Item? {
    guard let position = index[id], items[position].isVisible else { return nil }
    return items[position]
  }
}
