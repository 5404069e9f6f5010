import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

@testable import RoadmapSync

/// A board as a server would hold it after `plan` was carried out: stages created with ids,
/// the batch stored (ids from `firstID`), imported votes set.
func applied(_ plan: MigrationPlan, to board: BoardState, firstID: Int = 1) -> BoardState {
  var state = board
  var created: [String: Int] = [:]
  var nextStage = (state.stages.map(\.id).max() ?? 0) + 1
  for var stage in plan.stagesToCreate {
    stage.id = nextStage
    nextStage += 1
    created[stage.name] = stage.id
    state.stages.append(stage)
  }
  var nextFeature = max(firstID, (state.features.map(\.id).max() ?? 0) + 1)
  for upsert in plan.batch(createdStages: created).features {
    if let index = state.features.firstIndex(where: { $0.content.ref == upsert.content.ref }) {
      state.features[index].content = upsert.content
      if let votes = upsert.importedVotes {
        let identified = state.features[index].votes - (state.features[index].importedVotes ?? 0)
        state.features[index].importedVotes = votes
        state.features[index].votes = identified + votes
      }
    } else {
      state.features.append(
        .init(
          id: nextFeature, content: upsert.content, votes: upsert.importedVotes ?? 0,
          importedVotes: upsert.importedVotes ?? 0))
      nextFeature += 1
    }
  }
  return BoardState(stages: state.stages, features: state.features)
}

@Suite("Plans: migrate and reconcile, as values")
struct PlanTests {
  static let roadmap = """
    [
      {"id": "1", "title": "Widgets", "status": "planned", "votes": 3,
       "localizedTitle": [{"language": "de", "value": "Widgets!"}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": true},
      {"id": "3", "title": "Dark mode", "status": "in progress", "url": "https://x.example"}
    ]
    """

  @Test("a first migration creates every stage and feature; a second changes nothing")
  func idempotent() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let mapping = RoadmapMapping()
    let first = MigrationPlan.make(features: features, mapping: mapping, board: .empty)
    #expect(first.stagesToCreate.map(\.name) == ["planned", "Available", "in progress"])
    #expect(first.stagesToCreate.map(\.isFinished) == [false, true, false])
    #expect(first.creates == 3 && first.updates == 0 && first.unchanged == 0)
    #expect(first.batch(createdStages: ["planned": 7]).features[0].content.stage == 7)
    let board = applied(first, to: .empty)
    let second = MigrationPlan.make(features: features, mapping: mapping, board: board)
    #expect(second.stagesToCreate.isEmpty)
    #expect(second.stagesReused.map(\.name) == ["planned", "Available", "in progress"])
    #expect(second.unchanged == 3)
    #expect(second.writesNothing)
    #expect(second.batch(createdStages: [:]).features.isEmpty)
    // And the board reads back as the roadmap.
    let back = mapping.roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .restoring)
    #expect(back.features == features)
  }

  @Test("a run cut off after the stages finishes with the features, without new stages")
  func resumes() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let mapping = RoadmapMapping()
    let first = MigrationPlan.make(features: features, mapping: mapping, board: .empty)
    // Only the stages were created.
    var stagesOnly = BoardState.empty
    for (index, var stage) in first.stagesToCreate.enumerated() {
      stage.id = 10 + index
      stagesOnly.stages.append(stage)
    }
    let rerun = MigrationPlan.make(features: features, mapping: mapping, board: stagesOnly)
    #expect(rerun.stagesToCreate.isEmpty)
    #expect(rerun.creates == 3)
    #expect(rerun.batch(createdStages: [:]).features.map(\.content.stage) == [10, 11, 12])
  }

  @Test("a changed roadmap plans the fields that changed, and keeps the owner's fields")
  func updates() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let mapping = RoadmapMapping()
    var board = applied(
      MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
    board.features[0].content.tags = [4]
    board.features[0].content.response = "Soon."
    var changed = features
    changed[0].title = "Home widgets"
    changed[0].votes = 5
    changed[2].status = "planned"
    let plan = MigrationPlan.make(features: changed, mapping: mapping, board: board)
    #expect(
      plan.items.map(\.action) == [
        .update(fields: ["title", "votes"]), .unchanged, .update(fields: ["stage"]),
      ])
    let batch = plan.batch(createdStages: [:])
    #expect(batch.features.count == 2)
    #expect(batch.features[0].content.tags == [4])
    #expect(batch.features[0].content.response == "Soon.")
    // The status is now the stage's name; the stage was reused.
    #expect(plan.stagesToCreate.isEmpty)
    #expect(batch.features[1].content.stage == board.stages[0].id)
  }

  @Test("counted votes are imported; a feature without a count keeps the JSON's")
  func countedVotes() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let plan = MigrationPlan.make(
      features: features, mapping: RoadmapMapping(), board: .empty,
      votes: .counted(["1": 40, "2": 0]))
    #expect(plan.items.map(\.upsert.importedVotes) == [40, 0, nil])
  }

  /// Bug: a roadmap `publish` wrote (votes = the board's count, identified votes included)
  /// migrated back imported that count, so the identified votes counted twice, one more each
  /// cycle. The JSON's votes equal to the board's count move nothing; other fields still go,
  /// and a count that differs is imported as before.
  @Test("the JSON's votes equal to the board's count (a published roadmap) import nothing")
  func publishedVotesAreNotImportedAgain() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    var board = applied(
      MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    // One identified vote on feature 1: the board counts 4, 3 of them imported.
    board.features[0].votes = 4
    let published = try SyncFixtures.features(
      Self.roadmap.replacingOccurrences(of: #""votes": 3"#, with: #""votes": 4"#))
    let again = MigrationPlan.make(features: published, mapping: RoadmapMapping(), board: board)
    #expect(again.items[0].action == .unchanged, "\(again.items[0])")
    #expect(ReconcilePlan.make(roadmap: published, board: board).inSync)
    let renamed = try SyncFixtures.features(
      Self.roadmap.replacingOccurrences(of: #""votes": 3"#, with: #""votes": 4"#)
        .replacingOccurrences(of: "Widgets\",", with: "Widgets 2\","))
    let edit = MigrationPlan.make(features: renamed, mapping: RoadmapMapping(), board: board)
    #expect(edit.items[0].action == .update(fields: ["title"]))
    #expect(edit.batch(createdStages: [:]).features[0].importedVotes == nil)
    let gained = try SyncFixtures.features(
      Self.roadmap.replacingOccurrences(of: #""votes": 3"#, with: #""votes": 5"#))
    let more = MigrationPlan.make(features: gained, mapping: RoadmapMapping(), board: board)
    #expect(more.items[0].action == .update(fields: ["votes"]))
    #expect(more.items[0].upsert.importedVotes == 5)
  }

  @Test(
    "a rerun changes nothing for a kept negative count beside other kept originals, written in any key order"
  )
  func keptNegativeCountBesideOtherOriginals() throws {
    let features = try SyncFixtures.features(
      """
      [{"id":"n1","title":"x","status":"Available ","votes":-3},
       {"id":"n2","title":"y","votes":-2,"localizedTitle":[{"language":"en","value":"Y"}]},
       {"id":"n3","title":"z","status":"s","votes":-1,"localizedStatus":[{"language":"de","value":"S"}]}]
      """)
    let mapping = RoadmapMapping()
    var board = applied(
      MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
    let second = MigrationPlan.make(features: features, mapping: mapping, board: board)
    #expect(second.items.map(\.action) == [.unchanged, .unchanged, .unchanged], "\(second.items)")
    #expect(second.writesNothing)
    // A board an earlier version wrote the originals' members to in another order (its
    // reruns put `votes` last): the same values, no change either.
    for index in board.features.indices {
      var extra = try #require(board.features[index].content.extra)
      let at = try #require(extra.firstIndex { $0.key == ExtraKeys.originals })
      guard case .object(let object)? = JSONValueText.value(of: extra[at].json) else {
        Issue.record("unreadable originals: \(extra[at].json)")
        return
      }
      extra[at].json = JSONValueText.text(of: .object(JSONObject(object.members.reversed())))
      board.features[index].content.extra = extra
    }
    let reordered = MigrationPlan.make(features: features, mapping: mapping, board: board)
    #expect(reordered.writesNothing, "\(reordered.items)")
    #expect(ReconcilePlan.make(roadmap: features, board: board).inSync)
    // A real change to the kept values still is one.
    let edited = try SyncFixtures.features(
      #"[{"id":"n1","title":"x","status":"Available  ","votes":-3}]"#)
    let edit = MigrationPlan.make(features: edited, mapping: mapping, board: board)
    #expect(edit.items[0].action != .unchanged)
  }

  @Test("reconcile: an extra key's object with its members in another order is no drift")
  func extraObjectKeyOrderIsNoDrift() throws {
    let features = try SyncFixtures.features(#"[{"id":"1","meta":{"a":1,"b":[{"c":2,"d":3}]}}]"#)
    let mapping = RoadmapMapping()
    let board = applied(
      MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
    let reordered = try SyncFixtures.features(#"[{"id":"1","meta":{"b":[{"d":3,"c":2}],"a":1}}]"#)
    #expect(ReconcilePlan.make(roadmap: reordered, board: board).inSync)
    #expect(MigrationPlan.make(features: reordered, mapping: mapping, board: board).writesNothing)
    let changed = try SyncFixtures.features(#"[{"id":"1","meta":{"b":[{"d":3,"c":2}],"a":1.0}}]"#)
    #expect(!ReconcilePlan.make(roadmap: changed, board: board).inSync)
    #expect(!MigrationPlan.make(features: changed, mapping: mapping, board: board).writesNothing)
  }

  @Test("reconcile: in sync right after a migration")
  func inSync() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    let board = applied(
      MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    let plan = ReconcilePlan.make(
      roadmap: features, board: board, counts: ["1": 3, "2": 0, "3": 0])
    #expect(plan.inSync, "\(plan)")
  }

  @Test("reconcile: a count VoteFirst cannot hold, kept by the migration, is no drift")
  func keptCountIsNoDrift() throws {
    let features = try SyncFixtures.features(#"[{"id":"1","votes":-3},{"id":"2","votes":0}]"#)
    var board = applied(
      MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    #expect(ReconcilePlan.make(roadmap: features, board: board).inSync)
    board.features[0].votes = 2
    #expect(
      ReconcilePlan.make(roadmap: features, board: board).voteDrift == [
        .init(ref: "1", roadmap: -3, voteFirst: 2, counted: nil)
      ])
  }

  @Test("reconcile: the roadmap that matches the board keeps a kept count, and is in sync")
  func publishedKeptCountIsInSync() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"n1","title":"Neg","votes":-3},{"id":"n2","title":"Pos","votes":5}]"#)
    var board = applied(
      MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    let published = ReconcilePlan.roadmapMatchingBoard(roadmap: features, board: board)
    #expect(published.features == features)
    #expect(published.losses.entries.isEmpty)
    #expect(ReconcilePlan.make(roadmap: published.features, board: board).inSync)
    // A roadmap that says 0 drifts from the -3 the board gives back, and says so.
    var zero = features
    zero[0].votes = 0
    #expect(
      ReconcilePlan.make(roadmap: zero, board: board).voteDrift == [
        .init(ref: "n1", roadmap: 0, voteFirst: 0, counted: nil, published: -3)
      ])
    // A vote cast: the board's count wins, and what matches the board is in sync again.
    board.features[0].votes = 1
    let voted = ReconcilePlan.roadmapMatchingBoard(roadmap: features, board: board).features
    #expect(voted.map(\.votes) == [1, 5])
    #expect(ReconcilePlan.make(roadmap: voted, board: board).inSync)
    #expect(
      ReconcilePlan.make(roadmap: published.features, board: board).voteDrift == [
        .init(ref: "n1", roadmap: -3, voteFirst: 1, counted: nil)
      ])
  }

  @Test(
    "reconcile: a translation's other keys, kept by the migration, are in sync; changed, a drift")
  func localizedItemExtras() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1","localizedTitle":[{"language":"de","value":"Karten","note":"kurz"}]}]"#)
    let board = applied(
      MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    #expect(ReconcilePlan.make(roadmap: features, board: board).inSync)
    var edited = features
    edited[0].localizedTitle?[0].extra = JSONObject([("note", .string("lang"))])
    #expect(
      ReconcilePlan.make(roadmap: edited, board: board).differences == [
        .init(
          ref: "1",
          fields: [
            .init(
              field: "localizedTitle", language: "de",
              roadmap: #"{"language":"de","value":"Karten","note":"lang"}"#,
              voteFirst: #"{"language":"de","value":"Karten","note":"kurz"}"#)
          ])
      ])
    // Applying the roadmap to the board (reconcile --apply to-votefirst) carries the change.
    let plan = MigrationPlan.make(features: edited, mapping: RoadmapMapping(), board: board)
    #expect(ReconcilePlan.make(roadmap: edited, board: applied(plan, to: board)).inSync)
  }

  @Test("reconcile: one side only, fields per language, status and finished, vote drift")
  func drift() throws {
    let features = try SyncFixtures.features(Self.roadmap)
    var board = applied(
      MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    board.features[0].content.localizedTitle = [
      LocalizedText(language: "de", value: "Widgets"),
      LocalizedText(language: "fr", value: "Widgets"),
    ]
    board.features[0].votes = 9
    board.features[1].content.isFinished = false
    board.features.removeLast()
    board.features.append(
      .init(id: 40, content: FeatureContent(title: "Made on VoteFirst"), votes: 2))
    let plan = ReconcilePlan.make(roadmap: features, board: board, counts: ["1": 3, "2": 1])
    #expect(!plan.inSync)
    #expect(plan.onlyInRoadmap == ["3"])
    #expect(plan.onlyOnVoteFirst == ["vf-40"])
    #expect(plan.differences.map(\.ref) == ["1", "2"])
    #expect(
      plan.differences[0].fields == [
        .init(
          field: "localizedTitle", language: "de", roadmap: "\"Widgets!\"", voteFirst: "\"Widgets\""
        ),
        .init(field: "localizedTitle", language: "fr", roadmap: nil, voteFirst: "\"Widgets\""),
      ])
    #expect(
      plan.differences[1].fields == [
        .init(field: "isFinished", roadmap: "true", voteFirst: "false")
      ])
    #expect(
      plan.voteDrift == [
        // Counts compared with what the board imported (an export says): feature 1 took
        // in the API's 3 and counted 6 of its own since, so only its JSON drifts.
        .init(ref: "1", roadmap: 3, voteFirst: 9, counted: 3, imported: 3),
        .init(ref: "2", roadmap: nil, voteFirst: 0, counted: 1, imported: 0),
      ])
    let matching = ReconcilePlan.roadmapMatchingBoard(roadmap: features, board: board)
    #expect(matching.features.map(\.id) == ["1", "2", "vf-40"])
    #expect(matching.features[0].votes == 9)
  }

  /// A feature with tens of thousands of languages and extra keys maps and compares in time
  /// linear in them (a scan per language or key took 30,000 of them 46 s and 19 s), and
  /// still says exactly what differs.
  @Test(
    "reconcile and the mapping back: thousands of languages and extra keys",
    .timeLimit(.minutes(5)))
  func manyLanguagesAndExtraKeys() throws {
    let count = 30_000
    var feature = RoadmapFeature(
      id: "1", title: "Many",
      localizedTitle: (0..<count).map { LocalizedValue(language: "x-\($0)", value: "t\($0)") })
    feature.extra = JSONObject((0..<count).map { ("k\($0)", JSONValue.number("\($0)")) })
    var board = applied(
      MigrationPlan.make(features: [feature], mapping: RoadmapMapping(), board: .empty),
      to: .empty)
    #expect(ReconcilePlan.make(roadmap: [feature], board: board).inSync)

    // One language and one extra key changed on the board, one of each added, and a repeated
    // extra key (the first is kept).
    var content = board.features[0].content
    content.localizedTitle![count - 1].value = "changed"
    content.localizedTitle!.append(LocalizedText(language: "y-new", value: "new"))
    let extraEnd = content.extra!.count
    content.extra!.append(ExtraMember(key: "added", json: "true"))
    content.extra!.append(ExtraMember(key: "k5", json: "99"))
    if let index = content.extra!.firstIndex(where: { $0.key == "k7" }) {
      content.extra![index].json = "-7"
    }
    board.features[0].content = content
    #expect(extraEnd >= count)
    let plan = ReconcilePlan.make(roadmap: [feature], board: board)
    #expect(
      plan.differences.first?.fields == [
        .init(
          field: "localizedTitle", language: "x-\(count - 1)", roadmap: "\"t\(count - 1)\"",
          voteFirst: "\"changed\""),
        .init(field: "localizedTitle", language: "y-new", roadmap: nil, voteFirst: "\"new\""),
        .init(field: "extra.k7", roadmap: "7", voteFirst: "-7"),
        .init(field: "extra.added", roadmap: nil, voteFirst: "true"),
      ])
    let back = RoadmapMapping().roadmapFeature(
      from: content, id: 1, stage: nil, votes: 0)
    #expect(back.feature?.extra.members.count == count + 1)
    #expect(back.feature?.extra["k5"] == .number("5"))
    #expect(back.losses.map(\.field) == ["extra.k5"])
  }

  static let mappedRoadmap = """
    [
      {"id": "1", "title": "One", "status": "planned", "votes": 2},
      {"id": "2", "title": "Two", "status": "in progress"},
      {"id": "3", "title": "Three", "status": "done", "isFinished": true},
      {"id": "4", "title": "Four", "status": "planned", "isFinished": true}
    ]
    """

  static let statusMap = """
    {"stages": [
      {"name": "Planned", "statuses": ["planned"]},
      {"name": "In progress", "statuses": ["in progress"]},
      {"name": "Shipped", "statuses": ["done"], "isFinished": true}
    ], "finishedStage": "Shipped"}
    """

  /// Bug: a board migrated with a status map, planned again without it (`migrate` without
  /// `--status-map`, `reconcile --apply to-votefirst`, which has none), created a stage per raw
  /// status (`planned`, `in progress`, `done`, `Finished`) and moved every feature there, though
  /// the roadmap and the board were in sync.
  @Test("a rerun without the status map leaves the features in the stages the map gave them")
  func rerunWithoutTheStatusMap() throws {
    let features = try SyncFixtures.features(Self.mappedRoadmap)
    let mapped = RoadmapMapping(statusMap: try StatusMap.read(Array(Self.statusMap.utf8)))
    let first = MigrationPlan.make(features: features, mapping: mapped, board: .empty)
    #expect(first.stagesToCreate.map(\.name) == ["Planned", "In progress", "Shipped"])
    let board = applied(first, to: .empty)
    #expect(ReconcilePlan.make(roadmap: features, board: board).inSync)

    let again = MigrationPlan.make(features: features, mapping: RoadmapMapping(), board: board)
    #expect(again.stagesToCreate.isEmpty)
    #expect(again.writesNothing, "\(again.items.map(\.action))")

    // A new feature, and one whose status changed, go where the first run's map put that
    // status; a finished one with an unmapped status to the finished stage, as before.
    var changed = features
    changed[1].status = "planned"
    changed.append(RoadmapFeature(id: "5", title: "Five", status: "in progress"))
    let later = MigrationPlan.make(features: changed, mapping: RoadmapMapping(), board: board)
    #expect(later.stagesToCreate.isEmpty)
    let stages = Dictionary(uniqueKeysWithValues: board.stages.map { ($0.id, $0.name) })
    let placed = later.items.map { item in item.upsert.content.stage.flatMap { stages[$0] } }
    #expect(placed == ["Planned", "Planned", "Shipped", "Shipped", "In progress"])
    #expect(later.creates == 1)

    // A status map given again still decides: its rules move the features it names.
    let other = RoadmapMapping(
      statusMap: try StatusMap.read(
        Array(
          #"{"stages": [{"name": "Backlog", "statuses": ["planned"]}], "finishedStage": "Shipped"}"#
            .utf8)))
    let restructured = MigrationPlan.make(features: features, mapping: other, board: board)
    #expect(restructured.stagesToCreate.map(\.name) == ["Backlog"])
    #expect(restructured.items[0].action == .update(fields: ["stage", "extra"]))
    #expect(restructured.items[1].action == .unchanged)
    #expect(restructured.items[3].action == .unchanged)
  }

  static let renamedStatusMap = """
    {"stages": [{"name": "Planned", "statuses": ["planned"]},
                {"name": "In progress", "statuses": ["in progress"]}]}
    """

  /// Bug: a stage the owner renamed on VoteFirst was read as a move: the features in it were
  /// published with its new name as their status (their translated statuses dropped), and a
  /// rerun created the old stage again and moved them into it. The stage keeps its id, so it
  /// is the stage they were written for, with or without the status map.
  @Test("a stage renamed on VoteFirst is the same stage: no status change, no new stage")
  func renamedStage() throws {
    let features = try SyncFixtures.features(
      """
      [{"id": "1", "title": "One", "status": "planned",
        "localizedStatus": [{"language": "de", "value": "geplant"}]},
       {"id": "2", "title": "Two", "status": "Available ", "isFinished": true},
       {"id": "3", "title": "Three", "status": "in progress"}]
      """)
    for mapping in [
      RoadmapMapping(),
      RoadmapMapping(statusMap: try StatusMap.read(Array(Self.renamedStatusMap.utf8))),
    ] {
      var board = applied(
        MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
      let published = mapping.roadmapFeatures(
        from: board.wireFeatures, stages: board.stages, reading: .board)
      for index in board.stages.indices { board.stages[index].name += " (renamed)" }
      #expect(
        mapping.roadmapFeatures(from: board.wireFeatures, stages: board.stages, reading: .board)
          .features == published.features)
      #expect(ReconcilePlan.make(roadmap: features, board: board).inSync)
      let rerun = MigrationPlan.make(features: features, mapping: mapping, board: board)
      #expect(rerun.stagesToCreate.isEmpty)
      #expect(rerun.writesNothing, "\(rerun.items.map(\.action))")
      // A new feature with a renamed stage's status goes into that stage.
      let grown = MigrationPlan.make(
        features: features + [RoadmapFeature(id: "4", title: "Four", status: "planned")],
        mapping: mapping, board: board)
      #expect(grown.stagesToCreate.isEmpty)
      #expect(grown.items[3].upsert.content.stage == board.features[0].content.stage)
      #expect(grown.items[3].upsert.content.status == grown.items[0].upsert.content.status)
      // The roadmap taking the stage's new name as its status is a change, published so.
      var renamed = features
      renamed[2].status = board.stages.first { $0.id == board.features[2].content.stage }?.name
      let follow = MigrationPlan.make(features: renamed, mapping: mapping, board: board)
      #expect(follow.stagesToCreate.isEmpty)
      guard case .update(let fields) = follow.items[2].action else {
        Issue.record("\(follow.items[2].action)")
        continue
      }
      #expect(fields.contains("status"))
      let after = applied(follow, to: board)
      let back = mapping.roadmapFeatures(
        from: after.wireFeatures, stages: after.stages, reading: .board
      ).features
      #expect(back[2].status == renamed[2].status)
      // (A status map still lists the stage's old name, which no feature is written for now:
      // made again, empty, as the map says.)
      let again = MigrationPlan.make(features: renamed, mapping: mapping, board: after)
      #expect(again.items.allSatisfy { $0.action == .unchanged }, "\(again.items.map(\.action))")
    }
  }

  /// Bug: features migrated by an earlier roadmapctl (no record of the stage they were
  /// written for) beside features migrated since (with one), in one stage the owner then
  /// renamed: `publish` gave the old ones the new name as their status and dropped their
  /// translated statuses, the new ones the old name; `reconcile` reported the old ones as
  /// drifted, and a rerun of `migrate` (or `reconcile --apply to-votefirst`) planned no change
  /// for them, so the drift stayed for good. Reading under the new name what is written for
  /// the old one is now a change of the status, and the rerun writes the record.
  @Test("features migrated before the record, in a renamed stage, get it on the next run")
  func renamedStageWithFeaturesMigratedBeforeTheRecord() throws {
    let features = try SyncFixtures.features(
      """
      [{"id": "1", "title": "One", "status": "planned",
        "localizedStatus": [{"language": "de", "value": "geplant"}]},
       {"id": "2", "title": "Two", "status": "planned"},
       {"id": "3", "title": "Three", "status": "in progress"}]
      """)
    let grown = features + [RoadmapFeature(id: "4", title: "Four", status: "planned")]
    for mapping in [
      RoadmapMapping(),
      RoadmapMapping(statusMap: try StatusMap.read(Array(Self.renamedStatusMap.utf8))),
    ] {
      var board = applied(
        MigrationPlan.make(features: features, mapping: mapping, board: .empty), to: .empty)
      // As an earlier version wrote them: no record of the stage.
      for index in board.features.indices {
        board.features[index].content.extra = MigrationPlan.withoutWrittenStage(
          board.features[index].content.extra)
        if board.features[index].content.extra?.isEmpty == true {
          board.features[index].content.extra = nil
        }
      }
      // A feature added since, migrated with the record (by a roadmapctl that left the
      // unchanged ones without it: one today records theirs in the same run).
      board = applied(
        MigrationPlan.make(features: grown, mapping: mapping, board: board), to: board)
      for index in board.features.indices where board.features[index].content.ref != "4" {
        board.features[index].content.extra = MigrationPlan.withoutWrittenStage(
          board.features[index].content.extra)
        if board.features[index].content.extra?.isEmpty == true {
          board.features[index].content.extra = nil
        }
      }
      let published = mapping.roadmapFeatures(
        from: board.wireFeatures, stages: board.stages, reading: .board
      ).features
      #expect(published.map(\.status) == grown.map(\.status))
      // The stage of 1, 2 and 4 (3's, renamed, would be read as a move: no feature in it has
      // the record).
      for index in board.stages.indices
      where board.stages[index].id == board.features[0].content.stage {
        board.stages[index].name += " (renamed)"
      }
      let rerun = MigrationPlan.make(features: grown, mapping: mapping, board: board)
      #expect(rerun.stagesToCreate.isEmpty)
      #expect(rerun.items[0].action == .update(fields: ["status"]), "\(rerun.items[0].action)")
      #expect(rerun.items[1].action == .update(fields: ["status"]), "\(rerun.items[1].action)")
      #expect(rerun.items[3].action == .unchanged)
      let after = applied(rerun, to: board)
      #expect(
        mapping.roadmapFeatures(from: after.wireFeatures, stages: after.stages, reading: .board)
          .features == published)
      #expect(ReconcilePlan.make(roadmap: grown, board: after).inSync)
      let again = MigrationPlan.make(features: grown, mapping: mapping, board: after)
      #expect(again.writesNothing, "\(again.items.map(\.action))")
    }
  }

  /// Bug: a feature without a ref is published as `vf-ID`; that roadmap migrated back (after
  /// `reconcile --apply to-roadmap`, say) created a second feature with the ref `vf-ID`, so the
  /// board held it twice and `publish` then left the first out.
  @Test("a roadmap naming a ref-less feature by its stand-in id gives it that ref, no copy")
  func standInIDsAreTheRefLessFeature() throws {
    let stage = Stage(id: 1, name: "Maybe", position: 0)
    let content = FeatureContent(title: "Widgets", stage: 1)
    let board = BoardState(
      stages: [stage], features: [.init(id: 20, content: content, votes: 2, importedVotes: 0)])
    let published = RoadmapMapping().roadmapFeatures(
      from: board.wireFeatures, stages: board.stages, reading: .board)
    #expect(published.features.map(\.id) == ["vf-20"])

    let plan = MigrationPlan.make(
      features: published.features, mapping: RoadmapMapping(), board: board)
    #expect(plan.creates == 0)
    #expect(plan.items.map(\.adopting) == [20])
    #expect(plan.items.first?.action == .update(fields: ["ref"]))
    #expect(plan.items.first?.upsert.importedVotes == nil)

    // Where a feature has that ref, it is that feature, as `publish` says.
    var taken = content
    taken.ref = "vf-20"
    let both = BoardState(
      stages: [stage],
      features: board.features + [.init(id: 21, content: taken, votes: 0, importedVotes: 0)])
    let other = MigrationPlan.make(
      features: published.features, mapping: RoadmapMapping(), board: both)
    #expect(other.items.map(\.adopting) == [nil])
  }

  /// Bug: a feature without a ref whose stand-in id `vf-ID` another feature has as its ref was
  /// left out of the mapping (and of `publish`); `reconcile` then said the roadmap and a board
  /// holding it were in sync. Its stand-in is now `vf-ID-2`, on VoteFirst only.
  @Test("reconcile: a ref-less feature whose stand-in id is taken is on VoteFirst only")
  func shadowedRefLessFeatureIsDrift() throws {
    let stage = Stage(id: 1, name: "Maybe", position: 0)
    let refLess = FeatureContent(title: "Widgets", stage: 1)
    let copy = FeatureContent(ref: "vf-20", title: "Widgets", stage: 1)
    let board = BoardState(
      stages: [stage],
      features: [
        .init(id: 20, content: refLess, votes: 0, importedVotes: 0),
        .init(id: 21, content: copy, votes: 0, importedVotes: 0),
      ])
    let roadmap = [RoadmapFeature(id: "vf-20", title: "Widgets", status: "Maybe")]
    let plan = ReconcilePlan.make(roadmap: roadmap, board: board)
    #expect(plan.onlyOnVoteFirst == ["vf-20-2"])
    #expect(!plan.inSync)
  }
}
