import RoadmapFormat
import VoteFirstAPI

/// What a migration will write, worked out before anything is written: the stages to create,
/// and for each Roadmap feature whether its VoteFirst feature is created, changed (which
/// fields) or already as it should be.
///
/// Made from the roadmap, the project's current state and the votes, without I/O
/// (``make(features:mapping:board:votes:)``). Features are found again by ref, so a second
/// run plans no change, and a run cut off halfway plans only what is left.
public struct MigrationPlan: Sendable, Hashable {
  /// What happens to one feature.
  public enum Action: Sendable, Hashable {
    /// A new VoteFirst feature.
    case create
    /// The existing feature changes; the fields that differ (`title`, `stage`, `votes`, …).
    case update(fields: [String])
    /// The existing feature already holds exactly this.
    case unchanged
  }

  /// One Roadmap feature's part in the plan.
  public struct Item: Sendable, Hashable {
    /// The Roadmap id, the feature's ref.
    public var ref: String
    /// What happens.
    public var action: Action
    /// The upsert to send (its stage id is 0 while its stage is still to be created).
    public var upsert: FeatureUpsert
    /// The name of its stage, to bind the id of a stage created by the plan.
    public var stageName: String?
    /// The server's id of the feature without a ref that this item is (its Roadmap id is the
    /// `vf-ID` that `publish` wrote for it): give it ``ref`` (`PUT /features/{id}`) before the
    /// batch, which would otherwise create a second feature with that ref.
    public var adopting: Int? = nil
    /// Whether the feature, unchanged, is written all the same to give it the record of the
    /// stage it was written for, which a feature migrated by an earlier roadmapctl lacks:
    /// bookkeeping that changes nothing it reads as, so that a stage the owner renames on
    /// VoteFirst afterwards is read as a rename, not as a move of the feature.
    public var recordsStage: Bool = false
  }

  /// Where the imported votes come from.
  public enum Votes: Sendable, Hashable {
    /// The Roadmap JSON's own `votes`.
    case roadmapJSON
    /// Counts read from a counting API, by Roadmap id (a feature missing here keeps the
    /// JSON's votes).
    case counted([String: Int])
  }

  /// Stages to create, in order, with their positions after the existing stages.
  public var stagesToCreate: [Stage]
  /// Existing stages the features go to.
  public var stagesReused: [Stage]
  /// One item per Roadmap feature that can be carried, in roadmap order.
  public var items: [Item]
  /// What cannot be carried, or only in part.
  public var losses: LossReport

  /// The number of features created.
  public var creates: Int { items.count { $0.action == .create } }
  /// The number of features changed.
  public var updates: Int { items.count { if case .update = $0.action { true } else { false } } }
  /// The number of features left as they are.
  public var unchanged: Int { items.count { $0.action == .unchanged } }
  /// The number of unchanged features written only to record their stage
  /// (``Item/recordsStage``).
  public var stageRecords: Int { items.count { $0.recordsStage } }
  /// Whether the plan writes nothing (no stage, no feature, no record of a stage).
  public var writesNothing: Bool {
    stagesToCreate.isEmpty && creates == 0 && updates == 0 && stageRecords == 0
  }

  /// The plan that takes `features` onto a project in `board`.
  public static func make(
    features: [RoadmapFeature], mapping: RoadmapMapping, board: BoardState,
    votes: Votes = .roadmapJSON
  ) -> MigrationPlan {
    // A feature already on the board whose status and finished flag the roadmap leaves as the
    // board gives them back stays in its stage, unless the status map names its status: a rerun
    // (or `reconcile --apply to-votefirst`) without the status map of the first run moved every
    // mapped feature into a new stage named by its raw status.
    let existing = board.featuresByRefOrStandIn
    let kept = keptStages(of: features, existing: existing, mapping: mapping, board: board)
    let planned = features.indices.filter { kept[$0] == nil }
    let stagePlan = RoadmapMapping(statusMap: mapping.statusMap(learningFrom: board))
      .planStages(for: planned.map { features[$0] })
    var assignments: [String?] = Array(repeating: nil, count: features.count)
    for (position, index) in planned.enumerated() {
      assignments[index] = stagePlan.assignments[position]
    }
    var stagesToCreate: [Stage] = []
    var reused: [Stage] = []
    var resolved: [String: Stage] = [:]
    var nextPosition =
      (board.stages.filter { $0.board == Board.roadmapSlug }.map(\.position).max() ?? -1) + 1
    // By name through a dictionary (the first of a name, as `roadmapStage(named:)` finds it,
    // unless it was renamed to that name since its features were written for it and another
    // stage has the name too): a scan per stage was quadratic in the stages of a board with a
    // stage per status.
    let firstWritten = firstWrittenNames(on: board)
    let boardStages = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.name, $0) },
      uniquingKeysWith: { first, other in
        firstWritten[first.id].map { $0 != first.name } ?? false ? other : first
      })
    // A stage the owner renamed on VoteFirst since a feature was written for it (its id, with
    // the name it had, in the feature's kept originals) is still that stage under its old
    // name, as long as no stage has that name now: the roadmap's `planned` goes on to the
    // stage once called `planned`, instead of into a new stage of that name.
    var renamed = renamedStages(on: board, byName: boardStages)
    for (name, stage) in inferredRenames(
      planned: stagePlan, assignments: assignments, features: features, existing: existing,
      board: board, byName: boardStages, renamed: renamed)
    {
      renamed[name] = stage
    }
    for stage in stagePlan.stages {
      // A stage renamed since first: where it has the name of one renamed since (two names
      // swapped), that one is another stage's now.
      if let existing = renamed[stage.name] {
        reused.append(existing)
        var asWritten = existing
        asWritten.name = stage.name
        resolved[stage.name] = asWritten
      } else if let existing = boardStages[stage.name] {
        reused.append(existing)
        resolved[stage.name] = existing
      } else {
        var new = stage
        new.position = nextPosition
        nextPosition += 1
        stagesToCreate.append(new)
        resolved[stage.name] = new
      }
    }
    var reusedIDs = Set(reused.map(\.id))
    let boardStagesByID = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    for stage in kept.values.sorted(by: { $0.id < $1.id }) where reusedIDs.insert(stage.id).inserted
    {
      // As the board names it (a kept stage reads by the name its features were written for).
      reused.append(boardStagesByID[stage.id] ?? stage)
    }
    var items: [Item] = []
    var losses = LossReport()
    for (index, feature) in features.enumerated() {
      let stageName = kept[index]?.name ?? assignments[index]
      let stage = kept[index] ?? stageName.flatMap { resolved[$0] }
      let origin: RoadmapMapping.VoteOrigin
      if case .counted(let counts) = votes, let count = counts[feature.id] {
        origin = .counted(count)
      } else {
        origin = .roadmapJSON
      }
      let mapped = mapping.upsert(for: feature, stage: stage, votes: origin)
      losses.entries.append(contentsOf: mapped.losses)
      guard var upsert = mapped.upsert else { continue }
      let action: Action
      var records = false
      let current = existing[feature.id]
      // Found by its stand-in (no ref, or one that cannot be a Roadmap id): it takes this one.
      let adopting = current.flatMap { $0.content.ref != feature.id ? $0.id : nil }
      if let current {
        upsert.content = keepingOwnerFields(of: current.content, in: upsert.content)
        // The JSON's own votes equal to the board's count are the board's count, as `publish`
        // wrote it (or as in sync, for `reconcile`): imported, the votes cast on the board
        // since the last import would count twice.
        // At or below it: a publication's older copy of it (the votes cast on the board since
        // the file was written would be imported as the source's), treated alike.
        if origin == .roadmapJSON, let own = feature.votes, own <= current.votes {
          upsert.importedVotes = nil
          // Nor is the form of the count a change: the published 0 of a feature whose roadmap
          // had no `votes` would be recorded as an original, and the roadmap's next migration
          // would take it away again (reconcile, which compares counts, says in sync).
          upsert.content = Self.keepingVotesOriginal(of: current.content, in: upsert.content)
        }
        // Fewer than the board has taken in: a copy of the count older than the votes brought
        // in since (by `votes pull` or `--votes-from`), not votes the source lost; importing
        // it would take those votes away.
        if origin == .roadmapJSON, let wanted = upsert.importedVotes,
          let taken = current.importedVotes, wanted < taken
        {
          upsert.importedVotes = nil
        }
        var fields = differences(
          current.content, upsert.content, stageNames: boardStagesByID.mapValues(\.name))
        if adopting != nil { fields.insert("ref", at: 0) }
        if let wanted = upsert.importedVotes, wanted != current.importedVotes {
          fields.append("votes")
        }
        action = fields.isEmpty ? .unchanged : .update(fields: fields)
        // Migrated by an earlier roadmapctl, without the record of its stage: written once
        // with it, as bookkeeping (the feature reads as before).
        records =
          fields.isEmpty && writtenStage(current.content.extra) == nil
          && RoadmapMapping.keptOriginals(of: upsert.content).flatMap(
            RoadmapMapping.writtenStage) != nil
      } else {
        action = .create
      }
      items.append(
        Item(
          ref: feature.id, action: action, upsert: upsert, stageName: stageName,
          adopting: adopting, recordsStage: records))
    }
    return MigrationPlan(
      stagesToCreate: stagesToCreate, stagesReused: reused, items: items, losses: losses)
  }

  /// The roadmap board's stages that the owner renamed since a migration wrote a feature for
  /// them, by the name they had then (the stage the first such feature, by id, names), where
  /// no stage of the board has that name now, or the one that has it was itself renamed since
  /// (the first feature written for it names another name): two stages whose names the owner
  /// swapped are each still the stage their features were written for.
  static func renamedStages(on board: BoardState, byName: [String: Stage]) -> [String: Stage] {
    let stages = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    var written: [(name: String, stage: Stage)] = []
    for feature in board.features where feature.content.board == Board.roadmapSlug {
      guard let originals = RoadmapMapping.keptOriginals(of: feature.content),
        let record = RoadmapMapping.writtenStage(originals), let stage = stages[record.id]
      else { continue }
      written.append((record.name, stage))
    }
    let firstWritten = firstWrittenNames(on: board)
    var renamed: [String: Stage] = [:]
    for (name, stage) in written where stage.name != name && renamed[name] == nil {
      if let holder = byName[name], firstWritten[holder.id].map({ $0 == holder.name }) ?? true {
        continue
      }
      renamed[name] = stage
    }
    return renamed
  }

  /// The name each stage of the roadmap board had when the first feature (by id) that records
  /// it was written for it, by stage id.
  static func firstWrittenNames(on board: BoardState) -> [Int: String] {
    var names: [Int: String] = [:]
    for feature in board.features where feature.content.board == Board.roadmapSlug {
      guard let originals = RoadmapMapping.keptOriginals(of: feature.content),
        let record = RoadmapMapping.writtenStage(originals), names[record.id] == nil
      else { continue }
      names[record.id] = record.name
    }
    return names
  }

  /// The roadmap board's stages that the owner renamed before any feature in them had the
  /// record of its stage (features migrated by an earlier roadmapctl), by the name they had,
  /// where the features say it: a stage the plan wants under a name no stage of the board has
  /// (nor ``renamedStages(on:byName:)`` finds), that holds exactly the features on the board
  /// that the plan puts in it, none of them with the record, at least one of them with a
  /// status or translated statuses the earlier roadmapctl kept as written for a stage of that
  /// name, and whose own name the plan does not want.
  ///
  /// A stage the owner made, moved every such feature into, and whose old stage they deleted
  /// is read the same way: the features say the name they were written for, and the board
  /// has no stage of that name any longer. A roadmap whose statuses changed instead does not
  /// match: the features say the stage's name now.
  static func inferredRenames(
    planned: StagePlan, assignments: [String?], features: [RoadmapFeature],
    existing: [String: BoardState.ExistingFeature], board: BoardState,
    byName: [String: Stage], renamed: [String: Stage]
  ) -> [String: Stage] {
    let wantedNames = Set(planned.stages.map(\.name))
    let stages = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    var inStage: [Int: [BoardState.ExistingFeature]] = [:]
    for feature in board.features where feature.content.board == Board.roadmapSlug {
      if let id = feature.content.stage { inStage[id, default: []].append(feature) }
    }
    // The existing features the plan puts in each stage it wants, by name.
    var assigned: [String: [BoardState.ExistingFeature]] = [:]
    for (index, feature) in features.enumerated() {
      guard let name = assignments[index], let current = existing[feature.id] else { continue }
      assigned[name, default: []].append(current)
    }
    let taken = Set(renamed.values.map(\.id))
    var result: [String: Stage] = [:]
    var used = Set<Int>()
    for name in planned.stages.map(\.name)
    where byName[name] == nil && renamed[name] == nil {
      guard let members = assigned[name], let first = members.first?.content.stage,
        members.allSatisfy({
          $0.content.stage == first && $0.content.board == Board.roadmapSlug
        }),
        let stage = stages[first], !wantedNames.contains(stage.name), !taken.contains(first),
        let held = inStage[first], Set(held.map(\.id)) == Set(members.map(\.id)),
        held.allSatisfy({ writtenStage($0.content.extra) == nil }),
        held.contains(where: { writtenFor($0.content) == name }),
        !held.contains(where: { writtenFor($0.content).map { $0 != name } ?? false }),
        used.insert(first).inserted
      else { continue }
      result[name] = stage
    }
    return result
  }

  /// The stage name an earlier roadmapctl kept with `content`'s own status or translated
  /// statuses, as written for (nil when it kept none, or they differ).
  static func writtenFor(_ content: FeatureContent) -> String? {
    guard let originals = RoadmapMapping.keptOriginals(of: content) else { return nil }
    let names = [
      RoadmapMapping.stageOfOwnStatus(originals, content: content),
      RoadmapMapping.stageOfLocalizedStatus(originals, content: content),
    ].compactMap { $0 }
    guard let name = names.first, names.allSatisfy({ $0 == name }) else { return nil }
    return name
  }

  /// The board's stage of each feature (by index) that stays where it is: already on the
  /// roadmap board in a stage, with a status the status map does not name, and the status and
  /// finished flag the board gives back for it (so the roadmap did not change them).
  static func keptStages(
    of features: [RoadmapFeature], existing: [String: BoardState.ExistingFeature],
    mapping: RoadmapMapping, board: BoardState
  ) -> [Int: Stage] {
    let stages = Dictionary(
      board.stages.filter { $0.board == Board.roadmapSlug }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    var kept: [Int: Stage] = [:]
    for (index, feature) in features.enumerated() {
      guard let current = existing[feature.id], current.content.board == Board.roadmapSlug,
        let stage = RoadmapMapping.stage(
          current.content.stage.flatMap({ stages[$0] }), asWrittenFor: current.content),
        feature.status.map({ mapping.statusMap.rule(forStatus: $0) == nil }) ?? true,
        let given = mapping.roadmapFeature(
          from: current.content, id: current.id, stage: stage, votes: current.votes
        ).feature,
        given.status == feature.status, (given.isFinished ?? false) == (feature.isFinished ?? false)
      else { continue }
      kept[index] = stage
    }
    return kept
  }

  /// The batch of every feature to create or change, with the ids of the stages as created
  /// (`createdStages`: name → id, for the stages of ``stagesToCreate``).
  public func batch(createdStages: [String: Int]) -> FeatureBatch {
    FeatureBatch(
      features: items.compactMap { item in
        guard item.action != .unchanged || item.recordsStage else { return nil }
        var upsert = item.upsert
        if let name = item.stageName, upsert.content.stage == 0 {
          upsert.content.stage = createdStages[name]
          if let id = createdStages[name] {
            upsert.content = Self.bindingWrittenStage(id, in: upsert.content)
          }
        }
        return upsert
      })
  }

  /// `content` with the id of the stage created for it in the kept originals' record of the
  /// stage it was written for (0 until then).
  static func bindingWrittenStage(_ id: Int, in content: FeatureContent) -> FeatureContent {
    guard let index = content.extra?.firstIndex(where: { $0.key == ExtraKeys.originals }),
      case .object(var object)? = JSONValueText.value(of: content.extra![index].json),
      let member = object.members.firstIndex(where: {
        $0.key == RoadmapMapping.writtenStageField
      }),
      case .object(var written) = object.members[member].value,
      let slot = written.members.firstIndex(where: { $0.key == "id" })
    else { return content }
    written.members[slot].value = .number(String(id))
    object.members[member].value = .object(written)
    var content = content
    content.extra![index] = ExtraMember(
      key: ExtraKeys.originals, json: JSONValueText.text(of: .object(object)))
    return content
  }

  /// `wanted` with the kept original of `votes` (in the mapping's own extra member) that
  /// `current` has, or none when it has none; the other kept originals as `wanted` has them.
  static func keepingVotesOriginal(of current: FeatureContent, in wanted: FeatureContent)
    -> FeatureContent
  {
    func originals(_ content: FeatureContent) -> (index: Int?, object: JSONObject) {
      guard let index = content.extra?.firstIndex(where: { $0.key == ExtraKeys.originals }),
        case .object(let object)? = JSONValueText.value(of: content.extra![index].json)
      else { return (nil, JSONObject()) }
      return (index, object)
    }
    let kept = originals(current).object.members.first { $0.key == "votes" }
    var (index, object) = originals(wanted)
    object.members.removeAll { $0.key == "votes" }
    if let kept {
      // In its own place, not last: the originals the mapping writes put `votes` before
      // `statusStage`, and the same members in another order were a change on every rerun.
      object.members.append(kept)
      object = RoadmapMapping.inOriginalsOrder(object)
    }
    var content = wanted
    var extra = content.extra ?? []
    let member = ExtraMember(
      key: ExtraKeys.originals, json: JSONValueText.text(of: .object(object)))
    switch (index, object.isEmpty) {
    case (let index?, true): extra.remove(at: index)
    case (let index?, false): extra[index] = member
    case (nil, false): extra.append(member)
    case (nil, true): break
    }
    content.extra = extra.isEmpty ? nil : extra
    return content
  }

  /// `wanted` with the fields a migration does not own (the owner's response, due month, tags,
  /// comments, views, progress, release) taken from `current`, so a rerun leaves them alone.
  static func keepingOwnerFields(of current: FeatureContent, in wanted: FeatureContent)
    -> FeatureContent
  {
    var content = wanted
    content.response = current.response
    content.due = current.due
    content.tags = current.tags
    content.comments = current.comments
    content.views = current.views
    content.progress = current.progress
    content.release = current.release
    return content
  }

  /// The names of the fields in which `a` (on the board) and `b` (wanted) differ;
  /// `stageNames` are the board's stages' names now, by id.
  static func differences(
    _ a: FeatureContent, _ b: FeatureContent, stageNames: [Int: String] = [:]
  ) -> [String] {
    var fields: [String] = []
    if a.title != b.title { fields.append("title") }
    if a.description != b.description { fields.append("description") }
    if a.board != b.board { fields.append("board") }
    if a.stage != b.stage { fields.append("stage") }
    // The stage a feature was written for decides the status it is read back with where its
    // stage was renamed since: written for the stage under its new name is a new status.
    if a.status != b.status
      || (a.stage == b.stage && writtenStage(a.extra) != nil && writtenStage(b.extra) != nil
        && writtenStage(a.extra) != writtenStage(b.extra))
      || readsUnderNewName(a, wanted: b, stageNames: stageNames)
    {
      fields.append("status")
    }
    if a.isFinished != b.isFinished { fields.append("isFinished") }
    if a.localizedTitle != b.localizedTitle { fields.append("localizedTitle") }
    if a.localizedDescription != b.localizedDescription { fields.append("localizedDescription") }
    if a.localizedStatus != b.localizedStatus { fields.append("localizedStatus") }
    if !ExtraMember.areSameValues(withoutWrittenStage(a.extra), withoutWrittenStage(b.extra)) {
      fields.append("extra")
    }
    return fields
  }

  /// Whether `current` (a feature migrated before the stage it was written for was kept with
  /// it) reads back under its stage's new name where `wanted` is written for the stage's old
  /// one: the stage was renamed since, and without the record the feature reads as moved
  /// (another status than the roadmap's, its translated statuses dropped), beside the
  /// features in the same stage that have the record.
  static func readsUnderNewName(
    _ current: FeatureContent, wanted: FeatureContent, stageNames: [Int: String]
  ) -> Bool {
    guard current.stage == wanted.stage, writtenStage(current.extra) == nil,
      let id = current.stage, let now = stageNames[id],
      case .object(let written)? = writtenStage(wanted.extra),
      case .string(let name)? = written["name"]
    else { return false }
    return name != now
  }

  /// The kept record of the stage a feature was written for (`{"id","name"}`), if any.
  static func writtenStage(_ extra: [ExtraMember]?) -> JSONValue? {
    guard let member = extra?.first(where: { $0.key == ExtraKeys.originals }),
      case .object(let object)? = JSONValueText.value(of: member.json)
    else { return nil }
    return object[RoadmapMapping.writtenStageField]
  }

  /// `extra` without the kept record of the stage a feature was written for: bookkeeping,
  /// not a change of the feature (features migrated before it was kept get it with their next
  /// change, and a move is a change of `stage` alone).
  static func withoutWrittenStage(_ extra: [ExtraMember]?) -> [ExtraMember] {
    var extra = extra ?? []
    guard let index = extra.firstIndex(where: { $0.key == ExtraKeys.originals }),
      case .object(var object)? = JSONValueText.value(of: extra[index].json),
      object.members.contains(where: { $0.key == RoadmapMapping.writtenStageField })
    else { return extra }
    object.members.removeAll { $0.key == RoadmapMapping.writtenStageField }
    if object.isEmpty {
      extra.remove(at: index)
    } else {
      extra[index] = ExtraMember(
        key: ExtraKeys.originals, json: JSONValueText.text(of: .object(object)))
    }
    return extra
  }
}
