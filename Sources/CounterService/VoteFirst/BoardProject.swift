import Foundation
import VoteFirstAPI
import VoteStore

/// One project as the board routes need it, read in one transaction: its settings, boards,
/// stages and tags, decoded.
struct BoardProject: Sendable {
  var id: String
  var settings: ProjectSettings
  var createdAt: Int64
  let boards: [Board]
  let stages: [Stage]
  let tags: [FeatureTag]
  /// Where each board, stage and tag is in its list, so a batch's references are checked
  /// without a scan per reference (a batch of 500,000 tag references in a project of 1,000
  /// tags took 16 s).
  private let boardIndex: [String: Int]
  private let stageIndex: [Int: Int]
  private let tagIndex: [Int: Int]

  init(
    id: String, settings: ProjectSettings, createdAt: Int64, boards: [Board], stages: [Stage],
    tags: [FeatureTag]
  ) {
    self.id = id
    self.settings = settings
    self.createdAt = createdAt
    self.boards = boards
    self.stages = stages
    self.tags = tags
    boardIndex = Self.firstIndex(of: boards.map(\.slug))
    stageIndex = Self.firstIndex(of: stages.map(\.id))
    tagIndex = Self.firstIndex(of: tags.map(\.id))
  }

  /// Each key's first position in `keys`.
  private static func firstIndex<Key: Hashable>(of keys: [Key]) -> [Key: Int] {
    var index: [Key: Int] = [:]
    for (position, key) in keys.enumerated() where index[key] == nil { index[key] = position }
    return index
  }

  /// Boards, stages and tags decoded before, by their stored text.
  private static let boardDocuments = DecodedDocuments<Board>(capacity: 10_000)
  private static let stageDocuments = DecodedDocuments<Stage>(capacity: 50_000)
  private static let tagDocuments = DecodedDocuments<FeatureTag>(capacity: 50_000)

  /// The project on `tables`, or nil before its first admin call.
  static func load(_ tables: BoardTables, _ project: String) throws -> BoardProject? {
    guard let row = try tables.project(project) else { return nil }
    let settings = try BoardJSON.decode(ProjectSettings.self, row.settings)
    let boards = try tables.items(.board, project).map { try boardDocuments.value($0.doc) }
    let stages = try tables.items(.stage, project).map { try stageDocuments.value($0.doc) }
    let tags = try tables.items(.tag, project).map { try tagDocuments.value($0.doc) }
    return BoardProject(
      id: project, settings: settings, createdAt: row.createdAt, boards: boards,
      stages: stages.sorted { ($0.position, $0.id) < ($1.position, $1.id) }, tags: tags)
  }

  /// The project, created with default settings and the roadmap board when missing (the
  /// first admin call creates it).
  static func ensure(_ tables: BoardTables, _ project: String, now: Int64) throws -> BoardProject {
    // First: every admin write reads the project and decides on what it read (a suggestion
    // still pending, no stage or ref of that name yet), so writes of one project run one
    // after the other, on every instance sharing a PostgreSQL database.
    try tables.lockProject(project)
    if let existing = try load(tables, project) { return existing }
    try tables.createProject(
      BoardProjectRow(
        project: project, settings: try BoardJSON.encode(ProjectSettings()), createdAt: now))
    let roadmap = Board(slug: Board.roadmapSlug, name: "Roadmap")
    try tables.put(.board, BoardProject.row(roadmap, project: project, id: 1))
    try tables.reserveID(project, "board", atLeast: 1)
    guard let made = try load(tables, project) else {
      throw VoteStoreError(.other, "project \(project) vanished while being created")
    }
    return made
  }

  /// The stored row of `board`.
  static func row(_ board: Board, project: String, id: Int64) throws -> BoardItemRow {
    BoardItemRow(
      project: project, id: id, key: board.slug, sort: board.slug == Board.roadmapSlug ? 0 : 1,
      doc: try BoardJSON.encode(board))
  }

  /// The stored row of `stage`.
  static func row(_ stage: Stage, project: String) throws -> BoardItemRow {
    BoardItemRow(
      project: project, id: Int64(stage.id), key: stage.board, sort: Int64(stage.position),
      doc: try BoardJSON.encode(stage))
  }

  func board(_ slug: String) -> Board? { boardIndex[slug].map { boards[$0] } }
  func stage(_ id: Int) -> Stage? { stageIndex[id].map { stages[$0] } }
  func tag(_ id: Int) -> FeatureTag? { tagIndex[id].map { tags[$0] } }

  /// The problems of `content`'s references: its board, stage (on that board), tags and
  /// release must exist. `releases` are the project's release ids.
  func referenceProblems(
    _ content: FeatureContent, releases: Set<Int>, at path: String = ""
  ) -> [APIErrorBody] {
    let prefix = path.isEmpty ? "" : path + "."
    var problems: [APIErrorBody] = []
    func problem(_ field: String, _ message: String) {
      problems.append(
        APIErrorBody(
          code: VoteFirstContract.ErrorCode.validationFailed, message: message,
          field: prefix + field))
    }
    if board(content.board) == nil { problem("board", "there is no board \(content.board)") }
    if let id = content.stage {
      if let stage = stage(id) {
        if stage.board != content.board {
          problem("stage", "stage \(id) belongs to board \(stage.board), not \(content.board)")
        }
      } else {
        problem("stage", "there is no stage \(id)")
      }
    }
    for (index, id) in content.tags.enumerated() where tag(id) == nil {
      problem("tags[\(index)]", "there is no tag \(id)")
    }
    if let release = content.release, !releases.contains(release) {
      problem("release", "there is no release \(release)")
    }
    return problems
  }
}
