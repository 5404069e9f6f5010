import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

/// A feature made on the board (an approved suggestion, or one whose ref was taken away)
/// counts where the Roadmap JSON the board publishes is voted on, on a real `roadmapctl
/// serve` over SQLite and PostgreSQL.
@Suite struct SuggestionRefTests {
  typealias Code = VoteFirstContract.ErrorCode

  /// The published Roadmap JSON's features, by id.
  static func published(_ server: VoteFirstServer) async throws -> [String: RoadmapFeature] {
    let answer = try await server.serve.get("/roadmap/demo-app.json")
    #expect(answer.status == 200)
    let features = try RoadmapDocument.read(Array(answer.body.utf8), mode: .compatible).features
    return Dictionary(features.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  @Test(arguments: BoardBackend.allCases)
  func anApprovedSuggestionIsVotedOnThroughThePublishedRoadmap(backend: BoardBackend)
    async throws
  {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      let first = try await admin.upsertFeature(
        ref: "a", FeatureUpsert(content: FeatureContent(title: "A")))
      // The next feature's id is taken as a ref already: the approval picks the next free one.
      let clash = try await admin.upsertFeature(
        ref: "vf-\(first.id + 2)", FeatureUpsert(content: FeatureContent(title: "Clash")))
      let ann = server.client(voter: "ann")
      var receipts: [SuggestionReceipt] = []
      for title in ["Sync", "Widgets", "Export", "Themes"] {
        receipts.append(try await ann.submit(SuggestionDraft(title: title, description: "Please")))
      }

      let sync = try #require(try await admin.approveSuggestion(id: receipts[0].id).feature)
      #expect(sync == clash.id + 1)
      #expect(try await admin.feature(id: sync).ref == "vf-\(sync)-2")
      let widgets = try #require(try await admin.approveSuggestion(id: receipts[1].id).feature)
      #expect(try await admin.feature(id: widgets).ref == "vf-\(widgets)")

      // A ref asked for is given, unless a feature has it (and then nothing changes).
      await expectFailure(.refused, code: Code.refConflict) {
        try await admin.approveSuggestion(id: receipts[2].id, ref: "a")
      }
      await expectFailure(.refused, code: Code.validationFailed) {
        try await admin.approveSuggestion(id: receipts[2].id, ref: "tab\there")
      }
      #expect(
        try await admin.suggestions(state: .pending).map(\.id) == [2, 3].map { receipts[$0].id })
      let export = try #require(
        try await admin.approveSuggestion(id: receipts[2].id, ref: "export").feature)
      #expect(try await admin.feature(id: export).ref == "export")
      // Into a column of a custom board: the feature is on that board.
      _ = try await admin.putBoard(Board(slug: "ideas", name: "Ideas"))
      let later = try await admin.createStage(Stage(board: "ideas", name: "Later"))
      let themes = try #require(
        try await admin.approveSuggestion(id: receipts[3].id, stage: later.id).feature)
      let placed = try await admin.feature(id: themes)
      #expect(placed.board == "ideas" && placed.stage == later.id)
      #expect(try await admin.allFeatures().count == 6)

      // The Roadmap package votes with /hit/{namespace}/feature{id} on the published id: the
      // same counter the board counts the feature's votes in.
      #expect(try await ann.upvote(featureID: widgets).votes == 1)
      let hit = try await server.serve.get("/hit/demo-app/featurevf-\(widgets)")
      #expect(hit.body == #"{"value":2}"#)
      #expect(try await ann.feature(id: widgets).votes == 2)
      let roadmap = try await Self.published(server)
      #expect(roadmap["vf-\(widgets)"]?.votes == 2)
      #expect(roadmap["vf-\(sync)-2"]?.title == "Sync")
      #expect(roadmap["export"]?.votes == 0)
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func aFeatureGivenARefBringsItsVotesToTheRefsCounter(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      let made = try await admin.upsertFeature(
        ref: "tmp", FeatureUpsert(content: FeatureContent(title: "Made on the board")))
      let bare = try await admin.updateFeature(id: made.id, FeatureContent(title: "No ref"))
      #expect(bare.ref == nil)
      for voter in ["ann", "bob"] {
        #expect(try await server.client(voter: voter).upvote(featureID: bare.id).voted)
      }
      // Old app versions already count under the ref it is about to get: Ann once more, and
      // one anonymous vote.
      var hit = try await server.serve.get(
        "/hit/demo-app/featurekeep", headers: ["X-Voter-ID": "ann"])
      #expect(hit.body == #"{"value":1}"#)
      hit = try await server.serve.get("/hit/demo-app/featurekeep")
      #expect(hit.body == #"{"value":2}"#)

      let kept = try await admin.updateFeature(
        id: bare.id, FeatureContent(ref: "keep", title: "Kept"))
      #expect(kept.votes == 3)
      #expect(try await server.serve.get("/get/demo-app/featurekeep").body == #"{"value":3}"#)
      #expect(try await server.client(voter: "bob").feature(id: bare.id).voted)
      #expect(try await server.client(voter: "ann").unvote(featureID: bare.id).votes == 2)
      #expect(try await Self.published(server)["keep"]?.votes == 2)

      // Its votes left the ref-less counter: taking the ref away again starts from nothing,
      // and a ref changed to another one leaves the old ref's counter to old app versions.
      #expect(try await admin.updateFeature(id: bare.id, FeatureContent(title: "Bare")).votes == 0)
      _ = try await admin.updateFeature(id: bare.id, FeatureContent(ref: "keep", title: "Kept"))
      #expect(
        try await admin.updateFeature(id: bare.id, FeatureContent(ref: "other", title: "Other"))
          .votes == 0)
      #expect(try await server.serve.get("/get/demo-app/featurekeep").body == #"{"value":2}"#)
    }
  }
}
