import Foundation
import VoteFirstAPI
import VoteStore

/// The admin's calls on settings and features. Each creates the project when it is missing.
extension VoteFirstContext {
  /// `GET` / `PUT …/settings`. Changing the key template moves every feature with a ref to
  /// the counter the new template names.
  func settings(_ call: Call, replacing: Bool) async throws -> Answer {
    let incoming = replacing ? try call.body(ProjectSettings.self) : nil
    if let incoming {
      guard VoteFirstLimits.isValidVoteKeyTemplate(incoming.voteKeyTemplate) else {
        throw VoteFirstFailure.validation(
          "voteKeyTemplate",
          "voteKeyTemplate needs exactly one {id}, no control characters, at most 64 characters")
      }
      if let name = incoming.name,
        let problem = VoteFirstLimits.problems(inName: name, field: "name").first
      {
        throw VoteFirstFailure.validation(problem)
      }
    }
    if incoming == nil, let view, let model = try await view.model(call.project) {
      return Answer(status: 200, body: model.settingsBody)
    }
    let settings = try await boards.write { tables in
      var project = try BoardProject.ensure(tables, call.project, now: call.now)
      guard let incoming else { return project.settings }
      let retemplate = incoming.voteKeyTemplate != project.settings.voteKeyTemplate
      project.settings = incoming
      try tables.updateSettings(call.project, try BoardJSON.encode(incoming))
      if retemplate {
        for var row in try tables.features(call.project) where row.ref != nil {
          row.counterKey = VoteFirstContract.counterKey(
            ref: row.ref, id: Int(row.id), settings: incoming)
          try tables.put(row)
        }
      }
      return incoming
    }
    return try .json(settings)
  }

  /// `PUT …/features/ref/:ref`: create or change the feature with this ref.
  func upsertFeature(_ call: Call) async throws -> Answer {
    let ref = call.request.parameter("ref") ?? ""
    var upsert = try call.body(FeatureUpsert.self)
    if let given = upsert.content.ref, given != ref {
      throw VoteFirstFailure.validation("ref", "the body's ref differs from the path's (\(ref))")
    }
    upsert.content.ref = ref
    try Self.check(upsert, at: "")
    let (feature, created) = try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      let releases = try Self.releaseIDs(tables, call.project)
      if let problem = project.referenceProblems(upsert.content, releases: releases).first {
        throw VoteFirstFailure.validation(problem)
      }
      let outcome = try Self.store(upsert, tables, project, now: call.now)
      let row = try tables.feature(call.project, id: Int64(outcome.id))!
      let feature = try BoardJSON.feature(
        row, votes: try tables.votes(call.project, key: row.counterKey), voted: false,
        showViews: true)
      return (feature, outcome.change == .created)
    }
    return try .json(feature, status: created ? 201 : 200)
  }

  /// `POST …/features/batch`: many upserts by ref, in one transaction.
  func batchFeatures(_ call: Call) async throws -> Answer {
    let batch = try call.body(FeatureBatch.self)
    guard batch.features.count <= VoteFirstLimits.maxBatch else {
      throw VoteFirstFailure(
        413, Code.tooLarge,
        "a batch holds at most \(VoteFirstLimits.maxBatch) features (\(batch.features.count))")
    }
    var seen: [String: Int] = [:]
    for (index, upsert) in batch.features.enumerated() {
      let path = "features[\(index)]"
      guard let ref = upsert.content.ref else {
        throw VoteFirstFailure.validation(path + ".ref", "every feature of a batch needs a ref")
      }
      if let first = seen[ref] {
        throw VoteFirstFailure(
          409, Code.refConflict, "features[\(first)] and \(path) have the same ref \(ref)",
          field: path + ".ref")
      }
      seen[ref] = index
      try Self.check(upsert, at: path)
    }
    let result = try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      let releases = try Self.releaseIDs(tables, call.project)
      for (index, upsert) in batch.features.enumerated() {
        if let problem = project.referenceProblems(
          upsert.content, releases: releases, at: "features[\(index)]"
        ).first {
          throw VoteFirstFailure.validation(problem)
        }
      }
      var result = BatchResult(created: 0, updated: 0, unchanged: 0, features: [])
      result.features.reserveCapacity(batch.features.count)
      // One read of what exists, one id allocation: a batch costs one write per change.
      var known = BatchState(
        byRef: Dictionary(
          try tables.features(call.project).compactMap { row in row.ref.map { ($0, row) } },
          uniquingKeysWith: { first, _ in first }),
        imported: try tables.importedVotes(call.project),
        releases: ReleaseMembership(project: call.project))
      let fresh = batch.features.filter { known.byRef[$0.content.ref ?? ""] == nil }.count
      if fresh > 0 {
        known.nextID = try tables.nextIDs(call.project, "feature", count: Int64(fresh))
      }
      for upsert in batch.features {
        let outcome = try Self.store(upsert, tables, project, now: call.now, known: &known)
        switch outcome.change {
        case .created: result.created += 1
        case .updated: result.updated += 1
        case .unchanged: result.unchanged += 1
        }
        result.features.append(BatchResult.Item(id: outcome.id, ref: upsert.content.ref ?? ""))
      }
      try known.releases.save(tables)
      return result
    }
    return try .json(result)
  }

  /// `PUT …/features/:id`: replaces the feature's content (its ref too).
  ///
  /// A body without a `ref` member keeps the feature's ref: the ref names the counter its
  /// votes are in, and an edit that left it out (a title changed by a script) took the
  /// feature off them, its votes shown as 0 and its published id changed. `"ref": null`
  /// takes the ref away.
  func updateFeature(_ call: Call) async throws -> Answer {
    let id = try call.id()
    var content = try call.body(FeatureContent.self)
    let namesRef = try call.body(RefMember.self).isPresent
    try Self.check(FeatureUpsert(content: content), at: "")
    let feature = try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      guard let existing = try tables.feature(call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.featureNotFound, "feature \(id)", call.project)
      }
      if !namesRef { content.ref = existing.ref }
      if let ref = content.ref, let other = try Self.feature(tables, call.project, ref: ref) {
        guard other.id == existing.id else {
          throw VoteFirstFailure(
            409, Code.refConflict, "feature \(other.id) already has the ref \(ref)",
            field: "ref")
        }
        // Its own ref in another Unicode form: it keeps the stored one, and its counter.
        content.ref = other.ref
      }
      let releases = try Self.releaseIDs(tables, call.project)
      if let problem = project.referenceProblems(content, releases: releases).first {
        throw VoteFirstFailure.validation(problem)
      }
      let row = try BoardJSON.row(content, id: id, project: project, createdAt: existing.createdAt)
      try tables.put(row)
      if try ReleaseMembership.release(of: existing) != content.release {
        var releases = ReleaseMembership(project: call.project)
        try releases.place(id, in: content.release, tables)
        try releases.save(tables)
      }
      if existing.ref == nil, row.ref != nil {
        // Its votes were in a counter no route but the board's can reach: they come along
        // to the counter its ref names (where old app versions vote on it from now on).
        try tables.mergeCounter(
          call.project, from: existing.counterKey, into: row.counterKey, now: call.now)
      }
      return try BoardJSON.feature(
        row, votes: try tables.votes(call.project, key: row.counterKey), voted: false,
        showViews: true)
    }
    return try .json(feature)
  }

  /// `DELETE …/features/:id`: the feature goes; its counter stays (old apps may still count).
  func deleteFeature(_ call: Call) async throws -> Answer {
    let id = try call.id()
    try await boards.write { tables in
      _ = try BoardProject.ensure(tables, call.project, now: call.now)
      guard try tables.deleteFeature(call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.featureNotFound, "feature \(id)", call.project)
      }
      for var row in try tables.items(.release, call.project) {
        var release = try BoardJSON.decode(Release.self, row.doc)
        guard release.features.contains(id) else { continue }
        release.features.removeAll { $0 == id }
        row.doc = try BoardJSON.encode(release)
        try tables.put(.release, row)
      }
    }
    return .noContent
  }

  /// `PUT …/features/:id/imported-votes`: the votes imported into the counter's anonymous
  /// part (the first time its anonymous part, later moved by the change).
  func importedVotes(_ call: Call) async throws -> Answer {
    let id = try call.id()
    let body = try call.body(ImportedVotes.self)
    guard body.count >= 0 else {
      throw VoteFirstFailure.validation("count", "count cannot be negative")
    }
    // Said here with its field: the store's own refusal of a count past its bound named none.
    guard Int64(body.count) <= CounterLimits.maximum else {
      throw VoteFirstFailure.validation(
        "count", "count lies between 0 and \(CounterLimits.maximum)")
    }
    let votes = try await boards.write { tables in
      _ = try BoardProject.ensure(tables, call.project, now: call.now)
      guard let row = try tables.feature(call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.featureNotFound, "feature \(id)", call.project)
      }
      if body.raiseOnly {
        return try tables.raiseImportedVotes(
          call.project, key: row.counterKey, count: Int64(body.count), now: call.now)
      }
      return try tables.setImportedVotes(
        call.project, key: row.counterKey, count: Int64(body.count), now: call.now)
    }
    return try .json(VoteState(votes: Int(votes), voted: false))
  }

  // MARK: Shared

  /// What storing one upsert did.
  enum Change { case created, updated, unchanged }

  /// Validates an upsert's own fields (limits, imported votes); references are checked
  /// against the project inside the transaction.
  static func check(_ upsert: FeatureUpsert, at path: String) throws {
    if let problem = VoteFirstLimits.problems(in: upsert.content, at: path).first {
      throw VoteFirstFailure.validation(problem)
    }
    if let votes = upsert.importedVotes, votes < 0 || Int64(votes) > CounterLimits.maximum {
      throw VoteFirstFailure.validation(
        (path.isEmpty ? "" : path + ".") + "importedVotes",
        "importedVotes lies between 0 and \(CounterLimits.maximum)")
    }
  }

  /// What a batch knows before it writes: the features by ref, the counters' anonymous
  /// parts, and the next of the ids it reserved.
  struct BatchState {
    var byRef: [String: BoardFeatureRow]
    /// By counter key, compared by bytes: two refs in different Unicode forms are two
    /// counters (``CounterValues``).
    var imported: CounterValues
    var nextID: Int64 = 0
    /// The releases' lists, moved with the features' `release` (saved after the last one).
    var releases: ReleaseMembership
  }

  /// Stores one upsert found by its ref: creates it, changes it, or leaves it as it is.
  static func store(
    _ upsert: FeatureUpsert, _ tables: BoardTables, _ project: BoardProject, now: Int64
  ) throws -> (id: Int, change: Change) {
    let existing = try upsert.content.ref.flatMap { try feature(tables, project.id, ref: $0) }
    var known = BatchState(
      byRef: [:], imported: [:], releases: ReleaseMembership(project: project.id))
    if let existing, let ref = existing.ref { known.byRef[ref] = existing }
    if let existing {
      known.imported[existing.counterKey] = try tables.importedVotes(
        project.id, key: existing.counterKey)
    }
    let stored = try store(upsert, tables, project, now: now, known: &known)
    try known.releases.save(tables)
    return stored
  }

  /// Stores one upsert with what the batch already read; ids for new features come from
  /// `known.nextID` when reserved, else one at a time.
  static func store(
    _ upsert: FeatureUpsert, _ tables: BoardTables, _ project: BoardProject, now: Int64,
    known: inout BatchState
  ) throws -> (id: Int, change: Change) {
    var content = upsert.content
    var change = Change.unchanged
    let row: BoardFeatureRow
    if let ref = content.ref, let existing = known.byRef[ref] {
      // `byRef` finds a ref in another Unicode form too (Swift's string equality): the
      // feature keeps the ref it was stored with, so its votes stay in its counter.
      content.ref = existing.ref
      row = try BoardJSON.row(
        content, id: Int(existing.id), project: project, createdAt: existing.createdAt)
      if row != existing {
        try tables.put(row)
        change = .updated
        if try ReleaseMembership.release(of: existing) != content.release {
          try known.releases.place(Int(row.id), in: content.release, tables)
        }
      }
    } else {
      let id: Int64
      if known.nextID > 0 {
        id = known.nextID
        known.nextID += 1
      } else {
        id = try tables.nextID(project.id, "feature")
      }
      row = try BoardJSON.row(content, id: Int(id), project: project, createdAt: now)
      try tables.put(row)
      change = .created
      if content.release != nil {
        try known.releases.place(Int(row.id), in: content.release, tables)
      }
    }
    if let ref = row.ref { known.byRef[ref] = row }
    // Only a change of the imported count moves the counter (by that change): the votes cast
    // since the last import stay (``BoardTables/setImportedVotes(_:key:count:now:)``).
    if let votes = upsert.importedVotes, known.imported[row.counterKey] != Int64(votes) {
      try tables.setImportedVotes(project.id, key: row.counterKey, count: Int64(votes), now: now)
      known.imported[row.counterKey] = Int64(votes)
      if change == .unchanged { change = .updated }
    }
    return (Int(row.id), change)
  }

  /// The feature whose ref is `ref`: the one with these bytes, else one whose ref is the same
  /// text in another Unicode form (`é` precomposed, or `e` and a combining accent).
  ///
  /// Swift's strings compare so, and with them the Roadmap package's ids, a batch and an
  /// import; the store compares bytes. A single write that went by the bytes alone made a
  /// second feature for the other form, whose reads showed the first one's votes (counts are
  /// looked up by string) and whose project's export could not be imported.
  static func feature(_ tables: BoardTables, _ project: String, ref: String) throws
    -> BoardFeatureRow?
  {
    if let exact = try tables.feature(project, ref: ref) { return exact }
    guard mayHaveOtherForms(ref) else { return nil }
    return try tables.features(project).first { $0.ref == ref }
  }

  /// Whether text of `ref` could be written with other code points. ASCII has no other form
  /// but for three letters that are the decomposition of one other character each: `K`
  /// (U+212A KELVIN SIGN), `;` (U+037E GREEK QUESTION MARK) and `` ` `` (U+1FEF GREEK VARIA).
  static func mayHaveOtherForms(_ ref: String) -> Bool {
    ref.utf8.contains { byte in
      byte >= 0x80 || byte == UInt8(ascii: "K") || byte == UInt8(ascii: ";")
        || byte == UInt8(ascii: "`")
    }
  }

  /// The ids of the project's releases.
  static func releaseIDs(_ tables: BoardTables, _ project: String) throws -> Set<Int> {
    Set(try tables.items(.release, project).map { Int($0.id) })
  }
}

/// Whether a body has a `ref` member at all (`"ref": null` included), which
/// `FeatureContent`'s optional `ref` cannot tell from a body without one.
private struct RefMember: Decodable {
  var isPresent: Bool

  private enum Key: CodingKey { case ref }

  init(from decoder: any Decoder) throws {
    isPresent = try decoder.container(keyedBy: Key.self).contains(.ref)
  }
}
