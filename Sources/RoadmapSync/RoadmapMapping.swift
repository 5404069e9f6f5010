import RoadmapFormat
import VoteFirstAPI

/// The mapping between a Roadmap JSON feature and a VoteFirst feature, both ways, losing
/// nothing without saying so.
///
/// Roadmap → VoteFirst: the id becomes the `ref`; the title and description travel (an absent
/// one as empty); the status picks the stage (``planStages(for:)``) and travels as the
/// feature's own status where it is not the stage's name (`"Available "` in the stage
/// `Available`); `isFinished` picks a finished stage or travels as the feature's own flag;
/// localizations travel as they are; every other key travels in `extra` as its exact JSON text;
/// the votes (the JSON's own or a counting API's) become imported votes.
///
/// Whatever VoteFirst's fields cannot say (an empty title apart from an absent one, a status
/// absent in a stage, `isFinished` absent apart from false, absent or negative votes, a title
/// longer than VoteFirst allows) is kept in one `extra` member of the mapping's own, beside the
/// value VoteFirst reads at the time. VoteFirst → Roadmap gives the kept value back while
/// VoteFirst still reads the same; once the owner changes the field on VoteFirst, VoteFirst's
/// value wins. So Roadmap → VoteFirst → Roadmap gives back every feature exactly.
public struct RoadmapMapping: Sendable {
  /// Where a feature's imported votes come from.
  public enum VoteOrigin: Sendable, Hashable {
    /// The Roadmap JSON's own `votes` (absent: none imported).
    case roadmapJSON
    /// A count read from a counting API; the JSON's `votes` is then not kept.
    case counted(Int)
  }

  /// How VoteFirst votes become the Roadmap `votes` field.
  public enum VoteReading: Sendable, Hashable {
    /// The count, absent when 0, except where the Roadmap JSON had other `votes` (0, negative)
    /// and VoteFirst still counts what the mapping imported: then what the JSON had. For
    /// round trips.
    case restoring
    /// The board's count, 0 included (for apps still on the Roadmap package, which then show
    /// it without calling a counting API), except where the Roadmap JSON had `votes` VoteFirst
    /// cannot count (negative, or past 2^53 − 1) and VoteFirst still counts what the mapping
    /// imported: then what the JSON had, as ``restoring`` gives it. Once a vote moves the
    /// count, the count.
    case board
  }

  /// How statuses become stages.
  public var statusMap: StatusMap

  /// Creates a mapping.
  public init(statusMap: StatusMap = StatusMap()) {
    self.statusMap = statusMap
  }

  /// The Roadmap keys of a feature; any other key is an extra member.
  static let roadmapKeys: Set<String> = [
    "id", "title", "status", "description", "isFinished", "votes", "localizedTitle",
    "localizedStatus", "localizedDescription",
  ]

  /// The largest count a counter holds: 2^53 − 1.
  static let maxVotes = 9_007_199_254_740_991

  // MARK: Roadmap → VoteFirst

  /// The VoteFirst upsert of `feature` in `stage` (the stage its plan gave it, with the
  /// stage's real flags), or nil when the feature cannot be carried; and what it lost.
  ///
  /// `stage.id` may still be 0 (a stage not created yet): set `upsert.stage` once it exists.
  public func upsert(
    for feature: RoadmapFeature, stage: Stage?, votes origin: VoteOrigin = .roadmapJSON
  ) -> (upsert: FeatureUpsert?, losses: [LossReport.Entry]) {
    var losses: [LossReport.Entry] = []
    func note(_ field: String, _ kind: LossReport.Entry.Kind, _ reason: String) {
      losses.append(.init(feature: feature.id, field: field, kind: kind, reason: reason))
    }
    guard VoteFirstLimits.isValidRef(feature.id) else {
      note(
        "feature", .dropped,
        "its id cannot be a VoteFirst ref (1–\(VoteFirstLimits.maxRef) characters without "
          + "control characters), so it could not be found again; give it such an id")
      return (nil, losses)
    }
    var content = naturalContent(of: feature, stage: stage)
    for (field, value, limit) in [
      ("title", feature.title, VoteFirstLimits.maxTitle),
      ("description", feature.description, VoteFirstLimits.maxDescription),
    ] {
      if let value, value.unicodeScalars.count > limit {
        note(
          field, .altered,
          "\(value.unicodeScalars.count) characters, VoteFirst holds \(limit): it shows the "
            + "first \(limit); the Roadmap JSON published back keeps all of it")
      }
    }
    var importedVotes: Int?
    switch origin {
    case .roadmapJSON:
      if let votes = feature.votes {
        importedVotes = min(max(votes, 0), Self.maxVotes)
        if importedVotes != votes {
          note(
            "votes", .altered,
            "\(votes) cannot be a count (0 to 2^53 − 1): VoteFirst counts \(importedVotes!); "
              + "the Roadmap JSON published back keeps \(votes) while that count holds")
        }
      }
    case .counted(let count):
      importedVotes = min(max(count, 0), Self.maxVotes)
    }
    var extra: [ExtraMember] = []
    for member in feature.extra.members {
      if Self.roadmapKeys.contains(member.key) {
        note(
          "extra.\(member.key)", .dropped,
          "'\(member.key)' is a Roadmap field, not an extra key; Roadmap JSON never writes it")
        continue
      }
      extra.append(
        ExtraMember(
          key: ExtraKeys.wireKey(member.key), json: JSONValueText.text(of: member.value)))
    }
    // What VoteFirst will read back, field by field; keep the original where it differs.
    let readsAs = naturalFeature(
      of: content, stage: stage, votes: importedVotes.flatMap { $0 == 0 ? nil : $0 })
    var originals = JSONObject()
    func keep(_ field: String, _ original: JSONValue, _ read: JSONValue) {
      guard original != read else { return }
      originals.members.append(
        (field, .object(JSONObject([("roadmap", original), ("voteFirst", read)]))))
    }
    keep("title", .from(feature.title), .from(readsAs.title))
    keep("status", .from(feature.status), .from(readsAs.status))
    keep("description", .from(feature.description), .from(readsAs.description))
    keep("isFinished", .from(feature.isFinished), .from(readsAs.isFinished))
    if origin == .roadmapJSON {
      keep("votes", .from(feature.votes), .from(readsAs.votes))
    }
    // VoteFirst's translations are language and text: an item's other keys live here.
    keep("localizedTitle", .from(feature.localizedTitle), .from(readsAs.localizedTitle))
    keep("localizedStatus", .from(feature.localizedStatus), .from(readsAs.localizedStatus))
    keep(
      "localizedDescription", .from(feature.localizedDescription),
      .from(readsAs.localizedDescription))
    // A status of its own is the feature's text within its stage: once the owner moves it to
    // another stage (and leaves the text as it was), the Roadmap JSON published back says the
    // new stage, as the board's column does. So the stage it was written for is kept with it.
    if let own = content.status, let stage {
      originals.members.append(
        (
          Self.statusStageField,
          .object(JSONObject([("status", .string(own)), ("stage", .string(stage.name))]))
        ))
    }
    // Translations that follow the stage or the plain text, so the way back can follow what
    // the owner changes on VoteFirst: a move to another stage, a new title.
    if let stage, let items = readsAs.localizedStatus, !items.isEmpty {
      originals.members.append(
        (
          Self.localizedStatusStageField,
          .object(JSONObject([("stage", .string(stage.name)), ("items", .from(items))]))
        ))
    }
    // The stage it was written for, by id and name: renamed by the owner on VoteFirst it keeps
    // its id, so the way back and a later migration read it by the name it had, as the stage
    // the feature's status was written for, not as a move to another stage. Its id is 0 while
    // the stage is still to be created (``MigrationPlan/batch(createdStages:)`` sets it).
    if let stage {
      originals.members.append(
        (
          Self.writtenStageField,
          .object(JSONObject([("id", .number(String(stage.id))), ("name", .string(stage.name))]))
        ))
    }
    var mirrors = JSONObject()
    for (field, plain, items) in [
      ("title", content.title, readsAs.localizedTitle),
      ("description", content.description, readsAs.localizedDescription),
    ] where !plain.isEmpty {
      let languages = (items ?? []).filter { $0.value == plain }.map {
        JSONValue.string($0.language)
      }
      guard !languages.isEmpty else { continue }
      mirrors.members.append(
        (field, .object(JSONObject([("text", .string(plain)), ("languages", .array(languages))]))))
    }
    if !mirrors.isEmpty {
      originals.members.append((Self.mirrorsField, .object(mirrors)))
    }
    if !originals.isEmpty {
      extra.append(
        ExtraMember(key: ExtraKeys.originals, json: JSONValueText.text(of: .object(originals))))
    }
    content.extra = extra.isEmpty ? nil : extra
    return (FeatureUpsert(content: content, importedVotes: importedVotes), losses)
  }

  /// The content VoteFirst's own fields can say, without the kept originals.
  func naturalContent(of feature: RoadmapFeature, stage: Stage?) -> FeatureContent {
    let stageFinished = stage?.isFinished ?? false
    let ownFinished: Bool? =
      switch feature.isFinished {
      case nil: stageFinished ? false : nil
      case false?: false
      case true?: stageFinished ? nil : true
      }
    return FeatureContent(
      ref: feature.id,
      title: Self.prefix(feature.title ?? "", VoteFirstLimits.maxTitle),
      description: Self.prefix(feature.description ?? "", VoteFirstLimits.maxDescription),
      board: stage?.board ?? Board.roadmapSlug, stage: stage.map(\.id),
      status: feature.status == stage?.name ? nil : feature.status,
      isFinished: ownFinished,
      localizedTitle: feature.localizedTitle.map(Self.texts),
      localizedDescription: feature.localizedDescription.map(Self.texts),
      localizedStatus: feature.localizedStatus.map(Self.texts))
  }

  // MARK: VoteFirst → Roadmap

  /// The Roadmap feature of VoteFirst `content` in `stage` with `votes` counted, or nil when
  /// it cannot be one; and what it lost.
  ///
  /// `id` is the VoteFirst id, used to name a feature without a ref (`vf-12`).
  /// - Parameter stageStatuses: each stage's translated statuses (``stageStatuses(of:stages:)``),
  ///   which a feature moved to that stage on VoteFirst gets in place of the ones written for
  ///   its old stage; without them it gets none, and apps show the stage's name.
  /// - Parameter standIn: the id to write for a feature without a ref, or whose ref cannot be
  ///   a Roadmap id (``standInIDs(of:board:)``, which no other feature has as its ref); nil:
  ///   `vf-` and `id`.
  public func roadmapFeature(
    from content: FeatureContent, id: Int?, stage given: Stage?, votes: Int,
    reading: VoteReading = .restoring, stageStatuses: [Int: [LocalizedValue]] = [:],
    standIn: String? = nil
  ) -> (feature: RoadmapFeature?, losses: [LossReport.Entry]) {
    // A stage renamed on VoteFirst since is still the stage the feature was written for.
    let stage = Self.stage(given, asWrittenFor: content)
    var feature = naturalFeature(
      of: content, stage: stage, votes: reading == .board || votes != 0 ? votes : nil)
    var losses: [LossReport.Entry] = []
    let name = content.ref ?? id.map { "#\($0)" } ?? "?"
    func note(_ field: String, _ kind: LossReport.Entry.Kind, _ reason: String) {
      losses.append(.init(feature: name, field: field, kind: kind, reason: reason))
    }
    if let ref = content.ref, !Self.isCounterKeyID(ref) {
      // A Roadmap id must make a counter key (`feature` + id), or the app's votes for it are
      // lost and `roadmapctl validate` refuses the file: the stand-in of a feature without a
      // ref, which migrating the file back gives it as its ref.
      guard let id else {
        note("feature", .dropped, "its ref '\(ref)' cannot be a Roadmap id, and it has no id")
        return (nil, losses)
      }
      feature.id = standIn ?? "vf-\(id)"
      note(
        "id", .altered,
        "its ref '\(ref)' cannot be a Roadmap id (the counter key 'feature' + id must match "
          + "^[A-Za-z0-9_\\-.]{3,64}$): written with the id '\(feature.id)', whose counter is "
          + "not the one VoteFirst counts it in (give it the ref '\(feature.id)', or another "
          + "of letters, digits, '_', '-' and '.', to count both in one)")
    } else if content.ref == nil {
      guard let id else {
        note("feature", .dropped, "it has neither a ref nor an id to be a Roadmap id")
        return (nil, losses)
      }
      feature.id = standIn ?? "vf-\(id)"
      note(
        "id", .altered,
        "it has no ref (it was made on VoteFirst): written with the id '\(feature.id)', whose "
          + "counter is not the one VoteFirst counts it in (give it the ref '\(feature.id)' "
          + "to count both in one)")
    }
    var originals: JSONObject?
    // The keys taken so far, so a repeated one is found without a scan of the members
    // (30,000 extra members took /roadmap/:project.json 19 s).
    var extraKeys = Set(feature.extra.keys)
    for member in content.extra ?? [] {
      switch ExtraKeys.read(member.key) {
      case .reserved("roadmap"):
        guard case .object(let object)? = JSONValueText.value(of: member.json) else {
          note("extra", .dropped, "the mapping's own member cannot be read: \(member.json)")
          continue
        }
        originals = object
      case .reserved(let other):
        note("extra", .dropped, "an unknown member of the mapping's own, '\(other)'")
      case .roadmap(let key):
        if Self.roadmapKeys.contains(key) {
          note("extra.\(key)", .dropped, "'\(key)' is a Roadmap field, not an extra key")
        } else if extraKeys.contains(key) {
          note("extra.\(key)", .dropped, "the key comes twice; the first is kept")
        } else if let value = JSONValueText.value(of: member.json) {
          feature.extra.members.append((key, value))
          extraKeys.insert(key)
        } else {
          note("extra.\(key)", .dropped, "its value is not one JSON value: \(member.json)")
        }
      }
    }
    if let originals {
      apply(originals, to: &feature, votes: votes, note: note)
      if let written = Self.stageOfOwnStatus(originals, content: content), written != stage?.name {
        // Moved to another stage with the text it had: the stage's name, as VoteFirst shows.
        feature.status = stage?.name
      }
      if let written = Self.stageOfLocalizedStatus(originals, content: content),
        written != stage?.name
      {
        // Moved with the translations of its old stage: the new stage's, where the board has
        // them; else none, and apps show the stage's name in every language.
        feature.localizedStatus = stage.flatMap { stageStatuses[$0.id] }
      }
      Self.followMirrors(originals, content: content, into: &feature)
    }
    return (feature, losses)
  }

  /// The id written for each feature of `board` without a ref, or whose ref cannot be a
  /// Roadmap id (``isCounterKeyID(_:)``), by VoteFirst id: `vf-` and its id, or `vf-ID-2`,
  /// `vf-ID-3`… while a feature of `features` has that ref or an earlier feature (by id) has
  /// that stand-in, as the server names an approved suggestion's feature. So a stand-in is
  /// never another feature's ref: the Roadmap JSON holds both, and the ref it advises giving
  /// the feature is one the server accepts.
  public static func standInIDs(
    of features: [(id: Int, content: FeatureContent)], board: String = Board.roadmapSlug
  ) -> [Int: String] {
    var taken = Set(features.compactMap(\.content.ref))
    var result: [Int: String] = [:]
    for feature in features.sorted(by: { $0.id < $1.id })
    where feature.content.board == board
      && !(feature.content.ref.map(isCounterKeyID) ?? false) && result[feature.id] == nil
    {
      var standIn = "vf-\(feature.id)"
      var suffix = 1
      while taken.contains(standIn) {
        suffix += 1
        standIn = "vf-\(feature.id)-\(suffix)"
      }
      taken.insert(standIn)
      result[feature.id] = standIn
    }
    return result
  }

  /// Whether `ref` can be a Roadmap id: its counter key `feature` + id is a name counting
  /// APIs accept (`^[A-Za-z0-9_\-.]{3,64}$`), as `roadmapctl validate` requires of every id.
  public static func isCounterKeyID(_ ref: String) -> Bool {
    let bytes = ref.utf8
    return !bytes.isEmpty && bytes.count <= 64 - "feature".utf8.count
      && bytes.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
          UInt8(ascii: "."):
          true
        default: false
        }
      }
  }

  /// The member of the kept originals that names the stage (`id`, `name`) a feature was
  /// written for.
  static let writtenStageField = "writtenStage"

  /// The stage (id, name) `originals` say their feature was written for; nil when they name
  /// none, or one whose id was never known (0).
  static func writtenStage(_ originals: JSONObject) -> (id: Int, name: String)? {
    guard case .object(let kept)? = originals[writtenStageField],
      case .number(let text)? = kept["id"], let id = Int(text), id > 0,
      case .string(let name)? = kept["name"]
    else { return nil }
    return (id, name)
  }

  /// `stage` under the name it had when `content` was written for it, where the owner has
  /// renamed it on VoteFirst since (the same id, another name); else `stage` as it is.
  ///
  /// A rename is not a move: the feature keeps the status and translated statuses it was
  /// written with, and a migration finds the stage again by that name.
  static func stage(_ stage: Stage?, asWrittenFor content: FeatureContent) -> Stage? {
    guard var stage, let originals = keptOriginals(of: content),
      let written = writtenStage(originals), written.id == stage.id, written.name != stage.name
    else { return stage }
    stage.name = written.name
    return stage
  }

  /// The member of the kept originals that names the stage a feature's translated statuses
  /// were written for, with them as VoteFirst read them.
  static let localizedStatusStageField = "localizedStatusStage"

  /// The member of the kept originals that names the translations that were the plain title
  /// or description (`{"title": {"text": "Maps", "languages": ["en"]}}`).
  static let mirrorsField = "mirrors"

  /// The order the members of the kept originals are written in (``upsert(for:stage:votes:)``
  /// appends them so); a member put back from the board goes in its place, so the same
  /// originals are always the same text.
  static let originalsOrder = [
    "title", "status", "description", "isFinished", "votes", "localizedTitle", "localizedStatus",
    "localizedDescription", statusStageField, localizedStatusStageField, mirrorsField,
    writtenStageField,
  ]

  /// `object`'s members in ``originalsOrder`` (members it does not name last, in their order).
  static func inOriginalsOrder(_ object: JSONObject) -> JSONObject {
    let rank = Dictionary(
      uniqueKeysWithValues: originalsOrder.enumerated().map { ($0.element, $0.offset) })
    let sorted = object.members.enumerated().sorted { a, b in
      let left = rank[a.element.key] ?? originalsOrder.count
      let right = rank[b.element.key] ?? originalsOrder.count
      return left != right ? left < right : a.offset < b.offset
    }
    return JSONObject(sorted.map(\.element))
  }

  /// The members of the kept originals that are not a field's original value.
  static let followingFields: Set<String> = [
    statusStageField, localizedStatusStageField, mirrorsField, writtenStageField,
  ]

  /// The stage `content`'s translated statuses were written for, while they are still the
  /// ones it has (translations the owner wrote since are theirs); nil when none is kept.
  static func stageOfLocalizedStatus(_ originals: JSONObject, content: FeatureContent) -> String? {
    guard case .object(let kept)? = originals[localizedStatusStageField],
      case .string(let stage)? = kept["stage"],
      kept["items"] == .from(content.localizedStatus.map(values))
    else { return nil }
    return stage
  }

  /// Gives translations that were the plain title or description the text the owner gave
  /// that field on VoteFirst since, where they are still the text they mirrored.
  static func followMirrors(
    _ originals: JSONObject, content: FeatureContent, into feature: inout RoadmapFeature
  ) {
    guard case .object(let mirrors)? = originals[mirrorsField] else { return }
    for (field, plain, path) in [
      ("title", content.title, \RoadmapFeature.localizedTitle),
      ("description", content.description, \RoadmapFeature.localizedDescription),
    ] {
      guard case .object(let mirror)? = mirrors[field], case .string(let text)? = mirror["text"],
        case .array(let languages)? = mirror["languages"], text != plain, !plain.isEmpty,
        var items = feature[keyPath: path]
      else { continue }
      let mirrored = Set(languages.compactMap { if case .string(let l) = $0 { l } else { nil } })
      for index in items.indices where mirrored.contains(items[index].language) {
        if items[index].value == text { items[index].value = plain }
      }
      feature[keyPath: path] = items
    }
  }

  /// The translated statuses of each stage, by stage id, as the board's features in it have
  /// them: those of the first feature (by id) whose translations were written for the stage it
  /// is in, or by the owner on VoteFirst.
  public static func stageStatuses(of features: [Feature], stages: [Stage]) -> [Int:
    [LocalizedValue]]
  {
    let byID = Dictionary(stages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var result: [Int: [LocalizedValue]] = [:]
    for feature in features.sorted(by: { $0.id < $1.id }) {
      guard let stage = feature.content.stage, let current = byID[stage], result[stage] == nil,
        let items = feature.content.localizedStatus, !items.isEmpty,
        let name = Self.stage(current, asWrittenFor: feature.content)?.name
      else { continue }
      if let originals = keptOriginals(of: feature.content),
        let written = stageOfLocalizedStatus(originals, content: feature.content), written != name
      {
        continue
      }
      result[stage] = values(items)
    }
    return result
  }

  /// The kept originals of `content`, when it has readable ones.
  static func keptOriginals(of content: FeatureContent) -> JSONObject? {
    for member in content.extra ?? [] {
      if case .reserved("roadmap") = ExtraKeys.read(member.key),
        case .object(let object)? = JSONValueText.value(of: member.json)
      {
        return object
      }
    }
    return nil
  }

  /// The member of the kept originals that names the stage a feature's own status was
  /// written for.
  static let statusStageField = "statusStage"

  /// The stage `content`'s own status was written for, while that status is still the one it
  /// has (one the owner wrote since is theirs, whatever the stage); nil when none is kept.
  static func stageOfOwnStatus(_ originals: JSONObject, content: FeatureContent) -> String? {
    guard let own = content.status, case .object(let kept)? = originals[statusStageField],
      case .string(let status)? = kept["status"], status == own,
      case .string(let stage)? = kept["stage"]
    else { return nil }
    return stage
  }

  /// The Roadmap feature VoteFirst's own fields say, without the kept originals (`votes` as
  /// the reading gives it: restoring reads no votes as absent).
  func naturalFeature(of content: FeatureContent, stage: Stage?, votes: Int?) -> RoadmapFeature {
    RoadmapFeature(
      id: content.ref ?? "",
      title: content.title.isEmpty ? nil : content.title,
      status: content.status ?? stage?.name,
      description: content.description.isEmpty ? nil : content.description,
      localizedTitle: content.localizedTitle.map(Self.values),
      localizedStatus: content.localizedStatus.map(Self.values),
      localizedDescription: content.localizedDescription.map(Self.values),
      votes: votes,
      isFinished: content.isFinished ?? (stage?.isFinished == true ? true : nil))
  }

  /// Gives `feature` back the kept originals whose field VoteFirst still reads as it did;
  /// `votes` is the board's count.
  private func apply(
    _ originals: JSONObject, to feature: inout RoadmapFeature, votes: Int,
    note: (String, LossReport.Entry.Kind, String) -> Void
  ) {
    for (field, value) in originals.members where !Self.followingFields.contains(field) {
      guard case .object(let pair) = value, let original = pair["roadmap"],
        let read = pair["voteFirst"]
      else {
        note(field, .dropped, "its kept Roadmap value cannot be read")
        continue
      }
      /// Gives the field its original while VoteFirst still reads it as it did.
      func restore<Value>(
        _ path: WritableKeyPath<RoadmapFeature, Value?>, _ json: (Value?) -> JSONValue,
        _ decode: (JSONValue) -> Value??
      ) {
        if json(feature[keyPath: path]) == read, let value = decode(original) {
          feature[keyPath: path] = value
        }
      }
      switch field {
      case "title": restore(\.title, JSONValue.from, \.optionalString)
      case "status": restore(\.status, JSONValue.from, \.optionalString)
      case "description": restore(\.description, JSONValue.from, \.optionalString)
      case "isFinished": restore(\.isFinished, JSONValue.from, \.optionalBool)
      case "localizedTitle": restore(\.localizedTitle, JSONValue.from, \.optionalLocalized)
      case "localizedStatus": restore(\.localizedStatus, JSONValue.from, \.optionalLocalized)
      case "localizedDescription":
        restore(\.localizedDescription, JSONValue.from, \.optionalLocalized)
      case "votes":
        // The kept pair says the count as the upsert read it back (0 as absent), whichever
        // reading this is: both give the original back while the count holds.
        if JSONValue.from(votes == 0 ? nil : votes) == read, let value = original.optionalInt {
          feature.votes = value
        }
      default:
        note(field, .dropped, "the mapping keeps no field of that name")
      }
    }
  }

  static func prefix(_ text: String, _ limit: Int) -> String {
    guard text.unicodeScalars.count > limit else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
  }

  static func texts(_ values: [LocalizedValue]) -> [LocalizedText] {
    values.map { LocalizedText(language: $0.language, value: $0.value) }
  }

  static func values(_ texts: [LocalizedText]) -> [LocalizedValue] {
    texts.map { LocalizedValue(language: $0.language, value: $0.value) }
  }
}
