import Foundation
import VoteFirstAPI
import VoteStore

/// A board backup read the way `serve` reads the rows once they are restored, before any is
/// written: a document that does not decode would make every read of its project fail
/// (503), and a reference or column no admin call leaves behind would show a feature in a
/// stage, board or tag that is not there.
public enum BoardBackupCheck {
  /// The first problem of `backup` that ``BoardBackup/firstProblem`` (its shape) does not
  /// find, or nil: a project's settings, an object or a feature whose document does not
  /// decode; an object whose document names another id (or slug) than its row; a stage on
  /// a board the project does not have; a feature whose board, stage or tags are not the
  /// project's; or a feature whose columns (ref, counter key, board, stage, tags) are not
  /// the ones its document and the project's key template give.
  ///
  /// A feature naming a release the project does not have is let through: `serve` reads it,
  /// and versions before 2026-12 left one behind when the release was deleted.
  public static func firstProblem(in backup: BoardBackup) -> String? {
    var itemIndexes: [String: [Int]] = [:]
    for (index, item) in backup.items.enumerated() {
      itemIndexes[item.row.project, default: []].append(index)
    }
    var featureIndexes: [String: [Int]] = [:]
    for (index, row) in backup.features.enumerated() {
      featureIndexes[row.project, default: []].append(index)
    }
    for (index, row) in backup.projects.enumerated() {
      do {
        try check(
          row, at: index, items: itemIndexes[row.project] ?? [],
          features: featureIndexes[row.project] ?? [], of: backup)
      } catch {
        return error.message
      }
    }
    return nil
  }

  /// One problem, as the backup's reader is told it.
  private struct Problem: Error {
    var message: String
  }

  /// Checks one project with the indexes of its items and features in `backup`.
  private static func check(
    _ row: BoardProjectRow, at index: Int, items: [Int], features: [Int], of backup: BoardBackup
  ) throws(Problem) {
    let settings = try decode(
      ProjectSettings.self, row.settings, "projects[\(index)] (project \(row.project))",
      "its settings")
    var boards: [Board] = []
    var stages: [Stage] = []
    var tags: [FeatureTag] = []
    for index in items {
      let item = backup.items[index]
      let place = "items[\(index)] (\(item.kind) id \(item.row.id) of project \(row.project))"
      func same(_ id: Int) throws(Problem) {
        guard Int64(id) == item.row.id else {
          throw Problem(message: "\(place): its document is of id \(id)")
        }
      }
      switch BoardItemKind(rawValue: item.kind) {
      case .board:
        let board = try decode(Board.self, item.row.doc, place)
        guard board.slug == item.row.key else {
          throw Problem(message: "\(place): its document is of board \(board.slug)")
        }
        boards.append(board)
      case .stage:
        let stage = try decode(Stage.self, item.row.doc, place)
        try same(stage.id)
        stages.append(stage)
      case .tag:
        let tag = try decode(FeatureTag.self, item.row.doc, place)
        try same(tag.id)
        tags.append(tag)
      case .release: try same(try decode(Release.self, item.row.doc, place).id)
      case .suggestion: try same(try decode(Suggestion.self, item.row.doc, place).id)
      case nil: break  // BoardBackup.firstProblem names it.
      }
    }
    let project = BoardProject(
      id: row.project, settings: settings, createdAt: row.createdAt, boards: boards,
      stages: stages, tags: tags)
    for stage in stages where project.board(stage.board) == nil {
      throw Problem(
        message: "stage \(stage.id) of project \(row.project) is on board \(stage.board), "
          + "which the project does not have")
    }
    for index in features {
      let feature = backup.features[index]
      let place = "features[\(index)] (feature \(feature.id) of project \(row.project))"
      let content = try decode(FeatureContent.self, feature.doc, place)
      let problems = project.referenceProblems(content, releases: [])
      if let problem = problems.first(where: { $0.field != "release" }) {
        throw Problem(message: "\(place): \(problem.message)")
      }
      try columns(of: feature, content, project, place)
    }
  }

  /// Refuses a feature whose columns (what listings filter by and votes count in) are not
  /// what `serve` derives from its document.
  private static func columns(
    of row: BoardFeatureRow, _ content: FeatureContent, _ project: BoardProject, _ place: String
  ) throws(Problem) {
    let expected = BoardJSON.row(
      content, id: Int(row.id), project: project, createdAt: row.createdAt, doc: row.doc)
    func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
    let differences: [(String, String, String)] = [
      ("ref", text(row.ref), text(expected.ref)),
      ("counterKey", row.counterKey.debugDescription, expected.counterKey.debugDescription),
      ("board", row.board, expected.board),
      ("stage", text(row.stage), text(expected.stage)),
      ("tags", "\(row.tags)", "\(expected.tags)"),
    ].filter { $0.1 != $0.2 }
    if let (column, stored, derived) = differences.first {
      throw Problem(
        message: "\(place): its \(column) is \(stored) where its document and the project's "
          + "settings give \(derived)")
    }
  }

  /// `text` decoded as `type`, or the problem naming `place` (and `what` there).
  private static func decode<T: Decodable>(
    _ type: T.Type, _ text: String, _ place: String, _ what: String = "its document"
  ) throws(Problem) -> T {
    do {
      return try VoteFirstCoding.decode(type, from: Data(text.utf8))
    } catch {
      let reason = (error as? DecodingError).map(VoteFirstCoding.describe) ?? "\(error)"
      throw Problem(message: "\(place): \(what) cannot be read: \(reason)")
    }
  }
}
