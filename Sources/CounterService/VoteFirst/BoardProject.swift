import Foundation
import VoteFirstAPI
import VoteStore

/// One project as the board routes need it, read in one transaction: its settings, boards,
/// stages and tags, decoded.
struct BoardProject: Sendable {
  var id: String
  var settings: ProjectSettings
  var createdAt: Int64
  var boards: [Board]
  var stages: [Stage]
  var tags: [FeatureTag]

  /// The project on `tables`, or nil before its first admin call.
  static func load(_ tables: BoardTables, _ project: String) throws -> BoardProject? {
    guard let row = try tables.project(project) else { return nil }
    let settings = try BoardJSON.decode(ProjectSettings.self, row.settings)
    let boards = try tables.items(.board, project).map { try BoardJSON.decode(Board.self, $0.doc) }
    let stages = try tables.items(.stage, project).map { try BoardJSON.decode(Stage.self, $0.doc) }
    let tags = try tables.items(.tag, project).map { try BoardJSON.decode(FeatureTag.self, $0.doc) }
    return BoardProject(
      id: project, settings: settings, createdAt: row.createdAt, boards: boards,
      stages: stages.sorted { ($0.position, $0.id) < ($1.position, $1.id) }, tags: tags)
  }

  /// The project, created with default settings and the roadmap board when missing (the
  /// first admin call creates it).
  static func ensure(_ tables: BoardTables, _ project: String, now: Int64) throws -> BoardProject {
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

  func board(_ slug: String) -> Board? { boards.first { $0.slug == slug } }
  func stage(_ id: Int) -> Stage? { stages.first { $0.id == id } }
  func tag(_ id: Int) -> FeatureTag? { tags.first { $0.id == id } }

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
