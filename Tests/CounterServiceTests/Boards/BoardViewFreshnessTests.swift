import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// Every kind of board write, acknowledged, is seen by the next read, although reads are
/// answered from the service's in-memory board view (SQLite): each row reads first (so the
/// view holds the state before the write, and the row shows that this read does change),
/// writes, then reads again.
@Suite struct BoardViewFreshnessTests {
  struct Row: Sendable, CustomTestStringConvertible {
    var name: String
    /// Runs once after seeding, before the first read.
    var prepare: @Sendable (BoardHarness) async throws -> Void = { _ in }
    var write: @Sendable (BoardHarness) async throws -> Void
    var read: @Sendable (BoardHarness) async -> Answer
    /// Whether the answer shows the write.
    var shows: @Sendable (Answer) -> Bool

    var testDescription: String { name }
  }

  static func title(_ answer: Answer) -> String? { answer.object["title"] as? String }
  static func names(_ answer: Answer, _ key: String) -> [String] {
    answer.list(key).compactMap { $0["name"] as? String }
  }

  /// The demo project's rows under another project name, as a backup to restore.
  static func renamedBackup(_ h: BoardHarness, to project: String) async throws -> BoardBackup {
    let all = try await h.boards.backup()
    let from = BoardHarness.project
    return BoardBackup(
      projects: all.projects.filter { $0.project == from }.map {
        var row = $0
        row.project = project
        return row
      },
      items: all.items.filter { $0.row.project == from }.map {
        var item = $0
        item.row.project = project
        return item
      },
      features: all.features.filter { $0.project == from }.map {
        var row = $0
        row.project = project
        return row
      },
      sequences: all.sequences.filter { $0.project == from }.map {
        var sequence = $0
        sequence.project = project
        return sequence
      })
  }

  static let rows: [Row] = [
    Row(
      name: "PUT settings → board",
      write: { await $0.admin(.put, "/settings", #"{"name":"Renamed"}"#) },
      read: { await $0.get("/board") },
      shows: { ($0.object["settings"] as? [String: Any])?["name"] as? String == "Renamed" }),
    Row(
      name: "PUT settings (voting off) → vote refused",
      write: { await $0.admin(.put, "/settings", #"{"votingEnabled":false}"#) },
      read: {
        await $0.call(.post, "/api/v1/\(BoardHarness.project)/features/1/vote", voter: "v1")
      },
      shows: { $0.status == 403 }),
    Row(
      name: "PUT features/ref (new) → features",
      write: { await $0.admin(.put, "/features/ref/three", #"{"title":"Three"}"#) },
      read: { await $0.get("/features?order=newest") },
      shows: { $0.titles.contains("Three") }),
    Row(
      name: "PUT features/ref (change) → feature",
      write: { await $0.admin(.put, "/features/ref/one", #"{"title":"One, renamed"}"#) },
      read: { await $0.get("/features/1") },
      shows: { title($0) == "One, renamed" }),
    Row(
      name: "POST features/batch → features",
      write: {
        await $0.admin(
          .post, "/features/batch",
          #"{"features":[{"ref":"b1","title":"Batch 1"},{"ref":"b2","title":"Batch 2"}]}"#)
      },
      read: { await $0.get("/features?limit=100") },
      shows: { $0.titles.count == 4 && $0.titles.contains("Batch 2") }),
    Row(
      name: "PUT features/:id → feature",
      write: {
        await $0.admin(.put, "/features/2", #"{"title":"Two, edited","stage":1,"tags":[1]}"#)
      },
      read: { await $0.get("/features/2") },
      shows: { title($0) == "Two, edited" }),
    Row(
      name: "DELETE features/:id → feature",
      write: { await $0.admin(.delete, "/features/1") },
      read: { await $0.get("/features/1") },
      shows: { $0.status == 404 }),
    Row(
      name: "PUT imported-votes → feature's votes",
      write: { await $0.admin(.put, "/features/1/imported-votes", #"{"count":7}"#) },
      read: { await $0.get("/features/1") },
      shows: { $0.object["votes"] as? Int == 7 }),
    Row(
      name: "POST stages → board",
      write: { await $0.admin(.post, "/stages", #"{"name":"Done","position":1}"#) },
      read: { await $0.get("/board") },
      shows: { names($0, "stages").contains("Done") }),
    Row(
      name: "PUT stages/:id → board",
      write: { await $0.admin(.put, "/stages/1", #"{"name":"Next","position":0}"#) },
      read: { await $0.get("/board") },
      shows: { names($0, "stages") == ["Next"] }),
    Row(
      name: "DELETE stages/:id → board",
      prepare: { await $0.admin(.post, "/stages", #"{"name":"Empty","position":3}"#) },
      write: { await $0.admin(.delete, "/stages/2") },
      read: { await $0.get("/board") },
      shows: { !names($0, "stages").contains("Empty") }),
    Row(
      name: "POST tags → board",
      write: { await $0.admin(.post, "/tags", #"{"name":"Android"}"#) },
      read: { await $0.get("/board") },
      shows: { names($0, "tags").contains("Android") }),
    Row(
      name: "PUT tags/:id → board",
      write: { await $0.admin(.put, "/tags/1", #"{"name":"iPadOS"}"#) },
      read: { await $0.get("/board") },
      shows: { names($0, "tags") == ["iPadOS"] }),
    Row(
      name: "DELETE tags/:id → board",
      prepare: { await $0.admin(.post, "/tags", #"{"name":"Spare"}"#) },
      write: { await $0.admin(.delete, "/tags/2") },
      read: { await $0.get("/board") },
      shows: { !names($0, "tags").contains("Spare") }),
    Row(
      name: "PUT boards/:slug (new) → board",
      write: { await $0.admin(.put, "/boards/ideas", #"{"slug":"ideas","name":"Ideas"}"#) },
      read: { await $0.get("/board?board=ideas") },
      shows: { $0.status == 200 }),
    Row(
      name: "PUT boards/:slug (hidden) → board",
      prepare: { await $0.admin(.put, "/boards/ideas", #"{"slug":"ideas","name":"Ideas"}"#) },
      write: {
        await $0.admin(.put, "/boards/ideas", #"{"slug":"ideas","name":"Ideas","isPublic":false}"#)
      },
      read: { await $0.get("/board?board=ideas") },
      shows: { $0.status == 404 }),
    Row(
      name: "DELETE boards/:slug → board",
      prepare: { await $0.admin(.put, "/boards/ideas", #"{"slug":"ideas","name":"Ideas"}"#) },
      write: { await $0.admin(.delete, "/boards/ideas") },
      read: { await $0.get("/board?board=ideas") },
      shows: { $0.status == 404 }),
    Row(
      name: "POST releases → releases",
      write: {
        await $0.admin(.post, "/releases", #"{"title":"2.0","date":"2026-12-01T00:00:00Z"}"#)
      },
      read: { await $0.get("/releases") },
      shows: { $0.list("releases").compactMap { $0["title"] as? String } == ["2.0", "1.0"] }),
    Row(
      name: "PUT releases/:id → release",
      write: {
        await $0.admin(.put, "/releases/1", #"{"title":"1.0.1","date":"2026-11-01T00:00:00Z"}"#)
      },
      read: { await $0.get("/releases/1") },
      shows: { title($0) == "1.0.1" }),
    Row(
      name: "DELETE releases/:id → release",
      write: { await $0.admin(.delete, "/releases/1") },
      read: { await $0.get("/releases/1") },
      shows: { $0.status == 404 }),
    Row(
      name: "POST suggestions/:id/approve → features",
      write: { await $0.admin(.post, "/suggestions/1/approve") },
      read: { await $0.get("/features?order=newest") },
      shows: { $0.titles.contains("Dark mode") }),
    Row(
      name: "POST import (into an empty project) → features",
      prepare: { await $0.admin(.get, "/settings", project: "fresh-app") },
      write: { h in
        let document = await h.admin(.get, "/export").body
        await h.admin(.post, "/import", document, project: "fresh-app")
      },
      read: { await $0.get("/features", project: "fresh-app") },
      shows: { Set($0.titles) == ["One", "Two"] }),
    Row(
      name: "restore through the service's store → board",
      write: { h in try await h.boards.restore(try await renamedBackup(h, to: "restored-app")) },
      read: { await $0.get("/board", project: "restored-app") },
      shows: { $0.status == 200 }),
    Row(
      name: "PUT features/ref → web board page",
      write: { await $0.admin(.put, "/features/ref/one", #"{"title":"Web renamed"}"#) },
      read: { await $0.call(.get, "/b/\(BoardHarness.project)") },
      shows: { $0.status == 200 && $0.body.contains("Web renamed") }),
    Row(
      name: "PUT features/ref → /roadmap/:project.json",
      write: { await $0.admin(.put, "/features/ref/one", #"{"title":"JSON renamed"}"#) },
      read: { await $0.call(.get, "/roadmap/\(BoardHarness.project).json") },
      shows: { $0.status == 200 && $0.body.contains("JSON renamed") }),
    Row(
      name: "POST features/:id/vote → feature's votes",
      write: { h in
        let vote = await h.call(
          .post, "/api/v1/\(BoardHarness.project)/features/1/vote", voter: "voter-1")
        #expect(vote.status == 200, "\(vote.body)")
      },
      read: { await $0.get("/features/1", voter: "voter-1") },
      shows: { $0.object["votes"] as? Int == 1 && $0.object["voted"] as? Bool == true }),
    Row(
      name: "countapi /hit → features' votes",
      write: { h in
        let hit = await h.call(.get, "/hit/\(BoardHarness.project)/featureone")
        #expect(hit.status == 200, "\(hit.body)")
      },
      read: { await $0.get("/features?order=top") },
      shows: { ($0.list("features").first?["votes"] as? Int) == 1 }),
  ]

  @Test(arguments: rows)
  func aReadAfterTheWriteSeesIt(_ row: Row) async throws {
    try await BoardHarness.with { h in
      await h.seed()
      try await row.prepare(h)
      let before = await row.read(h)
      #expect(!row.shows(before), "the read shows the write before it: \(before.body)")
      _ = await h.get("/board")
      #expect(h.view?.cached(BoardHarness.project) != nil, "the demo project is in memory")
      try await row.write(h)
      let after = await row.read(h)
      #expect(row.shows(after), "\(after.status) \(after.body)")
    }
  }

  /// The view's premise: nothing but the service's own store writes the boards. Another
  /// process's store (`roadmapctl restore` while serving) is refused before it writes.
  @Test func anotherStoreOnTheFileCannotWriteBehindTheView() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      #expect(h.boards.seesEveryWrite)
      let backup = try await Self.renamedBackup(h, to: "restored-app")
      let other = try SQLiteBoardStore(path: h.store.path)
      #expect(!other.seesEveryWrite)
      do {
        try await other.restore(backup)
        Issue.record("another store restored while the service holds the file")
      } catch let error as VoteStoreError {
        #expect(error.kind == .busy, "\(error)")
      }
      await other.close()
      #expect((await h.get("/board", project: "restored-app")).status == 404)
      #expect(try await h.boards.read { try $0.project("restored-app") } == nil)
    }
  }

  @Test func aWriteThatIsRefusedKeepsTheViewAndChangesNothing() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      _ = await h.get("/board")
      let cached = try #require(h.view?.cached(BoardHarness.project))
      // A reference to a stage that does not exist: 422, rolled back, not told to the view.
      let refused = await h.call(
        .put, "/api/v1/\(BoardHarness.project)/features/ref/x", json: #"{"title":"X","stage":9}"#,
        admin: true)
      #expect(refused.status == 422)
      let still = try #require(h.view?.cached(BoardHarness.project))
      #expect(still.items.map(\.row) == cached.items.map(\.row))
      #expect(!(await h.get("/features?limit=100")).titles.contains("X"))
    }
  }
}
