import Foundation
import Testing
import VoteFirstAPI
import VoteStore

@testable import CounterService

/// `roadmapctl votes merge-refs` (``RefTwinMerge``) merges features whose refs are one ref in
/// two Unicode forms into the one with the lowest id.
@Suite struct RefTwinMergeTests {
  static func feature(
    _ project: String, _ id: Int64, ref: String, release: Int?
  ) throws -> BoardFeatureRow {
    BoardFeatureRow(
      project: project, id: id, ref: ref, counterKey: "feature" + ref, board: "roadmap",
      stage: nil, tags: [], search: "", comments: 0, createdAt: 1,
      doc: try BoardJSON.encode(FeatureContent(ref: ref, title: "F\(id)", release: release)))
  }

  /// Bug: a release that listed a twin that was merged away lost the feature (feature 3
  /// shipped in 1.0 and was merged into feature 1: 1.0 listed 5 and 7, nothing in its place,
  /// and feature 1 named no release). The feature that stays now takes the twin's place in
  /// that release, when it is in none itself; one in a release of its own stays there, and
  /// the twin only leaves the other's list (a feature is in one release at most).
  @Test func theFeatureThatStaysTakesATwinsPlaceInItsRelease() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ref-twin-merge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try SQLiteVoteStore(directory: directory)
    let boards = try SQLiteBoardStore(sharing: store)
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    // demo-app: feature 1 in no release, its twin 3 in 1.0. other-app: feature 1 in 2.0, its
    // twin 3 in 1.0.
    let setups: [(project: String, keptRelease: Int?, releases: [Release])] = [
      (
        "demo-app", nil,
        [
          Release(id: 1, title: "1.0", date: date, features: [5, 3, 7]),
          Release(id: 2, title: "1.1", date: date, features: [9]),
        ]
      ),
      (
        "other-app", 2,
        [
          Release(id: 1, title: "1.0", date: date, features: [3, 5]),
          Release(id: 2, title: "2.0", date: date, features: [1]),
        ]
      ),
    ]
    do {
      try await boards.write { tables in
        for setup in setups {
          let project = setup.project
          _ = try tables.createProject(
            BoardProjectRow(project: project, settings: "{}", createdAt: 1))
          try tables.put(
            try Self.feature(project, 1, ref: "\u{E9}t\u{E9}", release: setup.keptRelease))
          try tables.put(try Self.feature(project, 3, ref: "e\u{301}te\u{301}", release: 1))
          try tables.put(try Self.feature(project, 5, ref: "plain", release: 1))
          for release in setup.releases {
            try tables.put(
              .release,
              BoardItemRow(
                project: project, id: Int64(release.id), key: "", sort: 1,
                doc: try BoardJSON.encode(release)))
          }
        }
      }
      let merged = try await RefTwinMerge.mergeAll(boards, now: 5)
      #expect(merged.map(\.kept.id) == [1, 1])
      #expect(merged.map { $0.removed.map(\.id) } == [[3], [3]])
      let state = try await boards.read { tables in
        try setups.map { setup in
          let lists = try tables.items(.release, setup.project).map {
            try BoardJSON.decode(Release.self, $0.doc)
          }.sorted { $0.id < $1.id }.map(\.features)
          let kept = try tables.feature(setup.project, id: 1).map {
            try BoardJSON.decode(FeatureContent.self, $0.doc).release
          }
          return (lists, kept)
        }
      }
      #expect(state[0].0 == [[5, 1, 7], [9]])
      #expect(state[0].1 == .some(1), "feature 1 names the release it now is in")
      #expect(state[1].0 == [[5], [1]])
      #expect(state[1].1 == .some(2))
    } catch {
      await boards.close()
      await store.close()
      throw error
    }
    await boards.close()
    await store.close()
  }
}
