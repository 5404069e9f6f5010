import Foundation
import Testing

@testable import VoteStore

/// A board backup that cannot be restored as it reads is refused whole, before any write.
@Suite struct BoardBackupCheckTests {
  static func feature(_ id: Int64, ref: String?, project: String = "app.one") -> BoardFeatureRow {
    BoardFeatureRow(
      project: project, id: id, ref: ref, counterKey: "feature\(id)", board: "roadmap",
      stage: nil, tags: [], search: "", comments: 0, createdAt: 1, doc: "{}")
  }

  static func item(_ kind: String, _ id: Int64, project: String = "app.one") -> BoardBackup.Item {
    BoardBackup.Item(
      kind: kind, row: BoardItemRow(project: project, id: id, key: "k\(id)", sort: 0, doc: "{}"))
  }

  static let good = BoardBackup(
    projects: [
      BoardProjectRow(project: "app.one", settings: "{}", createdAt: 1),
      BoardProjectRow(project: "app.two", settings: "{}", createdAt: 1),
    ],
    items: [item("vf_boards", 1), item("vf_stages", 1), item("vf_stages", 1, project: "app.two")],
    features: [
      feature(1, ref: "1"), feature(2, ref: nil), feature(3, ref: nil),
      feature(1, ref: "1", project: "app.two"),
    ],
    sequences: [
      BoardBackup.Sequence(project: "app.one", kind: "feature", next: 4),
      BoardBackup.Sequence(project: "app.one", kind: "stage", next: 2),
    ])

  @Test func eachProblemIsNamed() {
    #expect(Self.good.firstProblem == nil)
    var cases: [(BoardBackup, String)] = []
    var twice = Self.good
    twice.projects.append(BoardProjectRow(project: "app.one", settings: "{}", createdAt: 2))
    cases.append((twice, "project app.one appears twice (projects[0] and projects[2])"))
    var item = Self.good
    item.items.append(Self.item("vf_stages", 1))
    cases.append((item, "vf_stages id 1 of project app.one appears twice (items[1] and items[3])"))
    var kind = Self.good
    kind.items.append(Self.item("vf_comments", 1))
    cases.append((kind, "items[3] is of an unknown kind, vf_comments"))
    var orphan = Self.good
    orphan.items.append(Self.item("vf_tags", 1, project: "app.three"))
    cases.append((orphan, "items[3] belongs to project app.three, which the backup does not hold"))
    var id = Self.good
    id.features.append(Self.feature(2, ref: "9"))
    cases.append(
      (id, "feature id 2 of project app.one appears twice (features[1] and features[4])"))
    var ref = Self.good
    ref.features.append(Self.feature(9, ref: "1"))
    cases.append(
      (ref, #"features[0] and features[4] of project app.one have the same ref "1""#))
    var sequence = Self.good
    sequence.sequences.append(BoardBackup.Sequence(project: "app.one", kind: "stage", next: 9))
    cases.append(
      (
        sequence,
        "the stage sequence of project app.one appears twice (sequences[1] and sequences[2])"
      ))
    for (backup, problem) in cases {
      #expect(backup.firstProblem == problem)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func restoreRefusesItBeforeWriting(_ kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      var backup = Self.good
      backup.features.append(Self.feature(2, ref: "9"))
      do {
        try await board.restore(backup)
        Issue.record("expected a refusal")
      } catch {
        #expect((error as? VoteStoreError)?.kind == .invalid, "\(error)")
      }
      let projects = try await board.read { try $0.projects() }
      #expect(projects.isEmpty)
      let restored = try await board.restore(Self.good)
      #expect(restored == 2)
      let features = try await board.read { try $0.features("app.one") }
      #expect(features.count == 3)
    }
  }
}
