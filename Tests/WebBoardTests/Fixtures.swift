import Foundation
import VoteFirstAPI
import WebBoard

/// Board values the page tests render.
enum Fixtures {
  static let date = Date(timeIntervalSince1970: 1_780_000_000)

  static func snapshot(
    settings: ProjectSettings = ProjectSettings(name: "Demo App"),
    board: Board = Board(slug: "roadmap", name: "Roadmap"),
    stages: [Stage]? = nil, tags: [FeatureTag]? = nil, boards: [Board] = []
  ) -> BoardSnapshot {
    BoardSnapshot(
      project: "demo-app", settings: settings, board: board,
      stages: stages ?? [
        Stage(id: 3, name: "Planned", color: ThemeColor(css: "#3366FF"), position: 0),
        Stage(id: 1, name: "In progress", position: 1),
        Stage(id: 2, name: "Done", position: 2, votingEnabled: false, isFinished: true),
      ],
      tags: tags ?? [
        FeatureTag(id: 1, name: "iOS", color: ThemeColor(css: "#FF9500")),
        FeatureTag(id: 2, name: "Mac"),
      ],
      boards: boards)
  }

  static func feature(
    _ id: Int, _ title: String, stage: Int? = 3, votes: Int = 0, voted: Bool = false,
    description: String = "", response: String? = nil, tags: [Int] = [], progress: Int? = nil,
    release: Int? = nil
  ) -> Feature {
    Feature(
      id: id,
      content: FeatureContent(
        ref: "r\(id)", title: title, description: description, response: response, stage: stage,
        tags: tags, progress: progress, release: release),
      votes: votes, voted: voted, createdAt: date)
  }

  static func boardPage(
    snapshot: BoardSnapshot = snapshot(), features: [Feature], query: FeatureQuery = FeatureQuery()
  ) -> String {
    let columns = snapshot.stages.map { stage in
      BoardColumn(stage: stage, features: features.filter { $0.stage == stage.id })
    }
    return WebBoardPages.board(
      BoardPageContent(
        snapshot: snapshot, columns: columns, query: query,
        list: FeaturePage(features: features, next: nil))
    ).text
  }
}
