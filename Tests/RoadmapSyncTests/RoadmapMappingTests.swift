import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

@testable import RoadmapSync

@Suite("RoadmapMapping: Roadmap ↔ VoteFirst, field by field")
struct RoadmapMappingTests {
  @Test("every hard case comes back exactly, through the export's JSON")
  func hardCasesRoundTrip() throws {
    let features = try SyncFixtures.features(SyncFixtures.hardCases)
    #expect(features.count == 14)
    let (back, losses, _) = try SyncFixtures.roundTrip(features)
    #expect(back.count == features.count)
    for (original, returned) in zip(features, back) {
      #expect(original == Self.asWritten(returned, for: original), "feature \(original.id)")
    }
    // Only the negative count is reported (VoteFirst shows 0, the JSON keeps -3), and the id
    // that cannot be a counter key's, written as its stand-in: `roadmapctl validate` refuses
    // a file with it (and `migrate` a roadmap with it).
    #expect(losses.entries.map(\.feature) == ["10", "a/b c"])
    #expect(losses.entries.map(\.field) == ["votes", "id"])
    #expect(losses.entries.map(\.kind) == [.altered, .altered])
  }

  /// `returned` with the id of `original` where the mapping gave it the stand-in `vf-ID`
  /// because the original id cannot be a counter key's (its other fields still travel).
  static func asWritten(_ returned: RoadmapFeature, for original: RoadmapFeature)
    -> RoadmapFeature
  {
    guard !RoadmapMapping.isCounterKeyID(original.id), returned.id.hasPrefix("vf-") else {
      return returned
    }
    var feature = returned
    feature.id = original.id
    return feature
  }

  @Test(
    "one case at a time",
    arguments: [
      #"[{"id":"1","status":"Available ","isFinished":true}]"#,
      #"[{"id":"1","status":"Done","isFinished":true},{"id":"2","status":"Done","isFinished":false},{"id":"3","status":"Done"}]"#,
      #"[{"id":"1","status":"?"}]"#,
      #"[{"id":"1","title":""}]"#,
      #"[{"id":"1"}]"#,
      #"[{"id":"1","isFinished":false}]"#,
      #"[{"id":"1","isFinished":true}]"#,
      #"[{"id":"1","status":"","isFinished":true}]"#,
      #"[{"id":"1","votes":0}]"#,
      #"[{"id":"1","votes":9007199254740993}]"#,
      #"[{"id":"1","x":[],"y":{},"z":-0.0e+10}]"#,
      #"[{"id":"1","localizedTitle":[{"language":"pt-BR","value":""}]}]"#,
      #"[{"id":"1","localizedTitle":[{"language":"de","value":"A","note":{"by":"x"}},{"language":"fr","value":"B"}],"localizedDescription":[{"language":"de","value":"C","n":1}]}]"#,
    ])
  func singleCase(_ text: String) throws {
    let features = try SyncFixtures.features(text)
    let (back, _, _) = try SyncFixtures.roundTrip(features)
    #expect(back == features)
  }

  @Test("statuses become stages in first-seen order; finished features in a finished stage")
  func stagePlan() throws {
    let features = try SyncFixtures.features(SyncFixtures.hardCases)
    let plan = RoadmapMapping().planStages(for: features)
    #expect(
      plan.stages.map(\.name) == ["planned", "Finished", "Available", "?", "in\nprogress"])
    #expect(plan.stages.map(\.isFinished) == [false, true, false, false, false])
    #expect(plan.stages.map(\.position) == [0, 1, 2, 3, 4])
    // 2 and 3 are finished in "Available", which 4 keeps unfinished: they go to "Finished".
    #expect(plan.assignments[1] == "Finished")
    #expect(plan.assignments[2] == "Finished")
    #expect(plan.assignments[3] == "Available")
    #expect(plan.assignments[5] == nil)  // no status, not finished
    #expect(plan.assignments[6] == nil)  // "" is no stage name
    #expect(plan.assignments[7] == "Finished")
    #expect(plan.assignments[13] == "planned")  // " planned" trimmed
  }

  @Test("a status whose features are all finished is a finished stage")
  func allFinishedStatus() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1","status":"Shipped","isFinished":true},{"id":"2","status":"Shipped","isFinished":true}]"#
    )
    let plan = RoadmapMapping().planStages(for: features)
    #expect(plan.stages.map(\.name) == ["Shipped"])
    #expect(plan.stages[0].isFinished)
    let stage = plan.stages[0]
    let upsert = try #require(RoadmapMapping().upsert(for: features[0], stage: stage).upsert)
    // Nothing of its own: the stage says it all (the mapping keeps only which stage it was
    // written for, so a rename of the stage on VoteFirst is not read as a move).
    #expect(upsert.content.status == nil)
    #expect(upsert.content.isFinished == nil)
    #expect(MigrationPlan.withoutWrittenStage(upsert.content.extra).isEmpty)
  }

  @Test("the VoteFirst side holds the values in its own fields where it can")
  func voteFirstFields() throws {
    let features = try SyncFixtures.features(SyncFixtures.hardCases)
    let (_, _, export) = try SyncFixtures.roundTrip(features)
    let byRef = Dictionary(uniqueKeysWithValues: export.features.map { ($0.feature.ref!, $0) })
    let stages = Dictionary(uniqueKeysWithValues: export.stages.map { ($0.id, $0) })
    let widget = try #require(byRef["1"])
    #expect(widget.feature.title == "Widgets")
    #expect(widget.importedVotes == 12)
    #expect(widget.feature.localizedTitle?.map(\.language) == ["en", "de"])
    #expect(stages[widget.feature.stage!]?.name == "planned")
    let sync = try #require(byRef["2"])
    #expect(sync.feature.status == "Available ")
    #expect(stages[sync.feature.stage!]?.isFinished == true)
    #expect(sync.feature.content.isFinished == nil)
    let dark = try #require(byRef["4"])
    #expect(dark.feature.status == "Available ")
    #expect(dark.feature.content.isFinished == false)
    let extras = try #require(byRef["9"])
    let keys = extras.feature.extra?.map(\.key) ?? []
    #expect(
      keys == [
        "url", "price", "big", "nested", "\u{1F}", "\u{1F}\u{1F}odd", "\u{1F}\u{1F}roadmap", "note",
      ])
    #expect(extras.feature.extra?[1].json == "1.50")
    #expect(extras.feature.extra?[3].json == #"{"z":[1,2.0,{"a":null}],"a":true}"#)
  }

  @Test("what VoteFirst cannot hold is reported by feature and field")
  func lossReport() throws {
    let long = String(repeating: "é", count: 300)
    let description = String(repeating: "x", count: 2001)
    let features = [
      RoadmapFeature(id: "1", title: long, description: description),
      RoadmapFeature(id: String(repeating: "i", count: 255)),
      RoadmapFeature(id: "bad\u{7}id"),
      RoadmapFeature(id: "4", extra: JSONObject([("title", .string("shadow"))])),
    ]
    let (back, losses, export) = try SyncFixtures.roundTrip(features)
    #expect(export.features.count == 2)
    #expect(export.features[0].feature.title.unicodeScalars.count == 254)
    #expect(export.features[0].feature.description.unicodeScalars.count == 2000)
    // The way back still has all of the title and description.
    #expect(back[0] == features[0])
    #expect(back[1] == RoadmapFeature(id: "4"))
    let summary = losses.entries.map { "\($0.feature.prefix(4))/\($0.field)/\($0.kind)" }
    #expect(
      summary == [
        "1/title/altered", "1/description/altered", "iiii/feature/dropped",
        "bad\u{7}/feature/dropped", "4/extra.title/dropped",
      ])
    #expect(losses.droppedFeatures.count == 2)
  }

  @Test("a field changed on VoteFirst wins over the value kept for the way back")
  func staleOriginals() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1","title":"","isFinished":true},{"id":"2","title":"Old","votes":-1}]"#)
    var (export, _) = RoadmapMapping().export(
      features, project: "demo-app", exportedAt: Date(timeIntervalSince1970: 0))
    export.features[0].feature.content.title = "Named on VoteFirst"
    export.features[1].feature.votes = 4
    let back = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    #expect(back[0].title == "Named on VoteFirst")
    #expect(back[0].status == nil)  // still kept: VoteFirst still reads its stage's name
    #expect(back[1].votes == 4)
  }

  @Test("a translation's other keys come back while VoteFirst's translations are as imported")
  func localizedItemExtras() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1","localizedTitle":[{"language":"de","value":"Alt","note":"kurz"}]},"#
        + #"{"id":"2","localizedStatus":[{"language":"de","value":"Geplant","by":"Ana"}]}]"#)
    var (export, losses) = RoadmapMapping().export(
      features, project: "demo-app", exportedAt: Date(timeIntervalSince1970: 0))
    #expect(losses.entries.isEmpty)
    // The board holds language and text; the item's other keys are kept for the way back.
    #expect(
      export.features[0].feature.content.localizedTitle == [
        LocalizedText(language: "de", value: "Alt")
      ])
    // Retranslated on VoteFirst: the board's translation wins, as any field changed there.
    export.features[0].feature.content.localizedTitle = [
      LocalizedText(language: "de", value: "Neu")
    ]
    let back = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    #expect(back[0].localizedTitle == [LocalizedValue(language: "de", value: "Neu")])
    #expect(back[1].localizedStatus?.first?.extra["by"] == .string("Ana"))
    #expect(back[1] == features[1])
  }

  @Test("publishing fills in the board's votes, and a kept count while the board still counts it")
  func boardVotes() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1"},{"id":"2","votes":-2},{"id":"3","votes":0},{"id":"4","votes":9007199254740993}]"#
    )
    var (export, _) = RoadmapMapping().export(
      features, project: "demo-app", exportedAt: Date(timeIntervalSince1970: 0))
    let published = RoadmapMapping().roadmapFeatures(from: export, reading: .board).features
    #expect(published.map(\.votes) == [0, -2, 0, 9_007_199_254_740_993])
    let restored = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    #expect(restored.map(\.votes) == [nil, -2, 0, 9_007_199_254_740_993])
    // A vote cast (an anonymous one taken, for the full counter) moves every count off what
    // was imported: the board's count wins.
    let moves = [1, 1, 1, -1]
    for (index, move) in moves.enumerated() { export.features[index].feature.votes += move }
    let voted = RoadmapMapping().roadmapFeatures(from: export, reading: .board).features
    #expect(voted.map(\.votes) == [1, 1, 1, 9_007_199_254_740_990])
    #expect(
      RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features == voted)
    // Taken back to what was imported, the kept count holds again.
    for (index, move) in moves.enumerated() { export.features[index].feature.votes -= move }
    #expect(
      RoadmapMapping().roadmapFeatures(from: export, reading: .board).features.map(\.votes)
        == [0, -2, 0, 9_007_199_254_740_993])
  }

  @Test("publishing gives every hard case back as the offline convert does, counts filled in")
  func boardReadingMatchesRestoring() throws {
    let features = try SyncFixtures.features(SyncFixtures.hardCases)
    let (_, _, export) = try SyncFixtures.roundTrip(features)
    let published = RoadmapMapping().roadmapFeatures(from: export, reading: .board)
    let restored = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring)
    #expect(published.losses == restored.losses)
    #expect(published.features.count == features.count)
    for (original, feature) in zip(features, published.features) {
      var expected = original
      expected.votes = original.votes ?? 0
      #expect(Self.asWritten(feature, for: original) == expected, "feature \(original.id)")
    }
  }

  @Test("counted votes are imported and not kept as the JSON's")
  func countedVotes() throws {
    let feature = RoadmapFeature(id: "1", title: "A")
    let mapped = RoadmapMapping().upsert(for: feature, stage: nil, votes: .counted(41))
    #expect(mapped.upsert?.importedVotes == 41)
    #expect(mapped.upsert?.content.extra == nil)
    let back = RoadmapMapping().roadmapFeature(
      from: mapped.upsert!.content, id: 1, stage: nil, votes: 41)
    #expect(back.feature?.votes == 41)
  }

  /// A status of its own (`"Available "`, or `planned` merged into `Planned` by a status map)
  /// is published while the feature stays in its stage; moved by the owner to another stage
  /// with the text left as it was, the feature is published with the new stage's name (it
  /// kept the old text, so the app showed the old column); a text the owner wrote since stays.
  @Test(
    arguments: [
      ("Available ", "Available"), ("planned", "Planned"),
    ])
  func anOwnStatusFollowsAMoveToAnotherStage(status: String, stageName: String) throws {
    let written = Stage(id: 1, name: stageName)
    let other = Stage(id: 2, name: "Geplant")
    let feature = try #require(
      try SyncFixtures.features(#"[{"id":"1","title":"One","status":"\#(status)"}]"#).first)
    let content = try #require(RoadmapMapping().upsert(for: feature, stage: written).upsert)
      .content
    #expect(content.status == status)
    func published(_ content: FeatureContent, in stage: Stage) -> String? {
      RoadmapMapping().roadmapFeature(from: content, id: 1, stage: stage, votes: 0).feature?
        .status
    }
    #expect(published(content, in: written) == status)
    #expect(published(content, in: other) == "Geplant")
    var rewritten = content
    rewritten.status = "Beta"
    #expect(published(rewritten, in: other) == "Beta")
  }

  /// A roadmap whose features' translations say their status and mirror their title, as
  /// most published roadmaps do.
  static let translated = """
    [{"id":"1","title":"Maps","status":"Planned",
      "localizedTitle":[{"language":"en","value":"Maps"},{"language":"de","value":"Karten"}],
      "localizedStatus":[{"language":"en","value":"Planned"},{"language":"de","value":"Geplant"}]},
     {"id":"2","title":"Sync","status":"Done","isFinished":true,
      "localizedStatus":[{"language":"en","value":"Done"},{"language":"de","value":"Fertig"}]},
     {"id":"3","title":"Widgets","status":"Planned",
      "localizedStatus":[{"language":"en","value":"Planned"},{"language":"de","value":"Geplant"}]}]
    """

  @Test("a feature moved on VoteFirst takes its new stage's translated status, or none")
  func translatedStatusFollowsAMove() throws {
    let features = try SyncFixtures.features(Self.translated)
    var (export, losses) = RoadmapMapping().export(
      features, project: "demo-app", exportedAt: Date(timeIntervalSince1970: 0))
    #expect(losses.entries.isEmpty)
    func published() -> [RoadmapFeature] {
      RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    }
    #expect(published() == features)
    let done = try #require(export.stages.first { $0.name == "Done" })
    // Moved to Done: the translations of Done, as feature 2 (written for it) has them.
    export.features[0].feature.content.stage = done.id
    var moved = published()
    #expect(moved[0].status == "Done")
    #expect(moved[0].localizedStatus == features[1].localizedStatus)
    #expect(moved[2] == features[2])
    // With no feature in Done left whose translations were written for it, none: apps show the
    // stage's name in every language rather than "Geplant".
    export.features[1].feature.content.stage = export.features[2].feature.content.stage
    moved = published()
    #expect(moved[0].localizedStatus == nil)
    #expect(moved[1].status == "Planned")
    #expect(moved[1].localizedStatus == features[2].localizedStatus)
    // Translations the owner wrote on VoteFirst are theirs, and the stage's for the others.
    export.features[0].feature.content.localizedStatus = [
      LocalizedText(language: "de", value: "Erledigt")
    ]
    moved = published()
    #expect(moved[0].localizedStatus == [LocalizedValue(language: "de", value: "Erledigt")])
    // A stage of the same name on another board lends nothing: stages are told apart by id.
    let otherDone = Stage(id: 99, board: "ios", name: "Done")
    let other = Feature(
      id: 0,
      content: FeatureContent(
        title: "Elsewhere", board: "ios", stage: otherDone.id,
        localizedStatus: [LocalizedText(language: "de", value: "Anders")]),
      createdAt: Date(timeIntervalSince1970: 0))
    let statuses = RoadmapMapping.stageStatuses(
      of: [other] + export.features.map(\.feature), stages: export.stages + [otherDone])
    #expect(statuses[done.id] == [LocalizedValue(language: "de", value: "Erledigt")])
    #expect(statuses[otherDone.id] == [LocalizedValue(language: "de", value: "Anders")])
  }

  @Test("a title changed on VoteFirst is published in the translations that were the title")
  func mirroredTranslationsFollowTheTitle() throws {
    let features = try SyncFixtures.features(
      #"[{"id":"1","title":"Maps","description":"See","localizedTitle":[{"language":"en","value":"Maps"},"#
        + #"{"language":"de","value":"Karten"},{"language":"en-GB","value":"Maps"}],"#
        + #""localizedDescription":[{"language":"en","value":"See"}]}]"#)
    var (export, _) = RoadmapMapping().export(
      features, project: "demo-app", exportedAt: Date(timeIntervalSince1970: 0))
    export.features[0].feature.content.title = "World maps"
    export.features[0].feature.content.localizedTitle?[2].value = "Maps of the world"
    var back = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    #expect(back[0].title == "World maps")
    #expect(
      back[0].localizedTitle?.map(\.value) == ["World maps", "Karten", "Maps of the world"])
    #expect(back[0].localizedDescription == features[0].localizedDescription)
    // An emptied title leaves the translations as they were (an empty one would win over them).
    export.features[0].feature.content.title = ""
    back = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    #expect(back[0].localizedTitle?.first?.value == "Maps")
    export.features[0].feature.content.description = "See more"
    back = RoadmapMapping().roadmapFeatures(from: export, reading: .restoring).features
    #expect(back[0].localizedDescription?.first?.value == "See more")
  }

  @Test("features made on VoteFirst, on other boards, or with broken extras are reported")
  func reverseLosses() throws {
    let stage = Stage(id: 1, name: "Planned")
    let features = [
      Feature(
        id: 5, content: FeatureContent(title: "Native", stage: 1), votes: 3,
        createdAt: Date(timeIntervalSince1970: 0)),
      Feature(
        id: 6, content: FeatureContent(ref: "vf-5", title: "Clash"),
        createdAt: Date(timeIntervalSince1970: 0)),
      Feature(
        id: 7, content: FeatureContent(ref: "x", title: "Other", board: "ideas"),
        createdAt: Date(timeIntervalSince1970: 0)),
      Feature(
        id: 8,
        content: FeatureContent(
          ref: "y", title: "Broken",
          extra: [
            ExtraMember(key: "ok", json: "1"), ExtraMember(key: "bad", json: "1, \"z\": 2"),
            ExtraMember(key: "\u{1F}future", json: "{}"), ExtraMember(key: "ok", json: "2"),
            ExtraMember(key: "status", json: "\"x\""),
          ]), createdAt: Date(timeIntervalSince1970: 0)),
    ]
    let (result, losses) = RoadmapMapping().roadmapFeatures(
      from: features, stages: [stage], reading: .board)
    // The ref-less feature's stand-in is not the other's ref `vf-5`: both are published.
    #expect(result.map(\.id) == ["vf-5-2", "vf-5", "y"])
    #expect(result[0].title == "Native")
    #expect(result[1].title == "Clash")
    #expect(result[2].extra == JSONObject([("ok", .number("1"))]))
    let summary = losses.entries.map { "\($0.feature)/\($0.field)/\($0.kind)" }
    #expect(
      summary == [
        "#5/id/altered", "x/feature/dropped", "y/extra.bad/dropped",
        "y/extra/dropped", "y/extra.ok/dropped", "y/extra.status/dropped",
      ])
  }
}
