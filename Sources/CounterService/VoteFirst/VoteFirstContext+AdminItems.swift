import Foundation
import VoteFirstAPI
import VoteStore

/// The admin's calls on stages, tags, boards, releases and suggestions.
extension VoteFirstContext {
  /// `POST …/stages` and `PUT …/stages/:id`.
  func putStage(_ call: Call, creating: Bool) async throws -> Answer {
    let id = creating ? nil : try call.id()
    var stage = try call.body(Stage.self)
    if let problem = VoteFirstLimits.problems(inName: stage.name, field: "name").first {
      throw VoteFirstFailure.validation(problem)
    }
    // `POST …/stages?reuse=name`: a stage of that name on the board is answered instead of a
    // second one made (two migrations at once each created every stage).
    let reuseByName = creating && call.request.query("reuse") == "name"
    let (stored, reused) = try await boards.write { tables -> (Stage, Bool) in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      guard project.board(stage.board) != nil else {
        throw VoteFirstFailure.validation("board", "there is no board \(stage.board)")
      }
      if reuseByName,
        let existing = project.stages.first(where: {
          $0.board == stage.board && $0.name == stage.name
        })
      {
        return (existing, true)
      }
      var existing: Stage?
      if let id {
        guard let found = project.stage(id) else {
          throw VoteFirstFailure.notFound(Code.stageNotFound, "stage \(id)", call.project)
        }
        existing = found
      }
      // One name per board, compared as `reuse=name` compares it (Swift's `==`: the same
      // text in another Unicode form is the same name, another case is not): two stages of
      // one name made `reuse=name` answer whichever came first in the board's order, and
      // publish both as one status. A stage written with the name and board it has makes no
      // second one: twins an export brought in (written before names were one per board)
      // may still be archived, moved or recoloured, and renaming either ends them.
      let keepsItsName = existing.map { $0.name == stage.name && $0.board == stage.board } ?? false
      if !keepsItsName,
        let other = project.stages.first(where: {
          $0.board == stage.board && $0.name == stage.name && $0.id != id
        })
      {
        throw VoteFirstFailure(
          409, Code.stageNameTaken,
          "stage \(other.id) of board \(stage.board) is already named \(stage.name.debugDescription): "
            + "give this stage another name, or rename or delete stage \(other.id) first",
          field: "name")
      }
      if let id, let existing {
        if existing.board != stage.board,
          try tables.featureCount(call.project, stage: Int64(id)) > 0
        {
          throw VoteFirstFailure(
            409, Code.stageInUse, "stage \(id) holds features; it cannot change boards")
        }
        stage.id = id
      } else {
        stage.id = Int(try tables.nextID(call.project, "stage"))
      }
      try tables.put(.stage, try BoardProject.row(stage, project: call.project))
      return (stage, false)
    }
    return try .json(stored, status: creating && !reused ? 201 : 200)
  }

  /// `1 feature`, `2 features`: a count and its noun, as a message says it.
  static func count(_ number: some BinaryInteger, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// `DELETE …/stages/:id`: 409 while features are in it.
  func deleteStage(_ call: Call) async throws -> Answer {
    let id = try call.id()
    try await boards.write { tables in
      _ = try BoardProject.ensure(tables, call.project, now: call.now)
      let inUse = try tables.featureCount(call.project, stage: Int64(id))
      if inUse > 0 {
        throw VoteFirstFailure(
          409, Code.stageInUse,
          "stage \(id) holds \(Self.count(inUse, "feature")): give \(inUse == 1 ? "it" : "them") "
            + "another stage (or none) or delete \(inUse == 1 ? "it" : "them") first")
      }
      guard try tables.delete(.stage, call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.stageNotFound, "stage \(id)", call.project)
      }
    }
    return .noContent
  }

  /// `POST …/tags` and `PUT …/tags/:id`.
  func putTag(_ call: Call, creating: Bool) async throws -> Answer {
    let id = creating ? nil : try call.id()
    var tag = try call.body(FeatureTag.self)
    if let problem = VoteFirstLimits.problems(inName: tag.name, field: "name").first {
      throw VoteFirstFailure.validation(problem)
    }
    let stored = try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      if let id {
        guard project.tag(id) != nil else {
          throw VoteFirstFailure.notFound(Code.tagNotFound, "tag \(id)", call.project)
        }
        tag.id = id
      } else {
        tag.id = Int(try tables.nextID(call.project, "tag"))
      }
      try tables.put(
        .tag,
        BoardItemRow(
          project: call.project, id: Int64(tag.id), key: "", sort: 0,
          doc: try BoardJSON.encode(tag)))
      return tag
    }
    return try .json(stored, status: creating ? 201 : 200)
  }

  /// `DELETE …/tags/:id`: 409 while features carry it.
  func deleteTag(_ call: Call) async throws -> Answer {
    let id = try call.id()
    try await boards.write { tables in
      _ = try BoardProject.ensure(tables, call.project, now: call.now)
      let inUse = try tables.featureCount(call.project, tag: Int64(id))
      if inUse > 0 {
        throw VoteFirstFailure(
          409, Code.tagInUse,
          "\(Self.count(inUse, "feature")) \(inUse == 1 ? "carries" : "carry") tag \(id): take "
            + "it off \(inUse == 1 ? "that feature" : "them") first")
      }
      guard try tables.delete(.tag, call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.tagNotFound, "tag \(id)", call.project)
      }
    }
    return .noContent
  }

  /// `PUT …/boards/:slug`: create or change a board (the roadmap board stays public).
  func putBoard(_ call: Call) async throws -> Answer {
    let slug = call.request.parameter("slug") ?? ""
    guard VoteFirstLimits.isValidSlug(slug) else {
      throw VoteFirstFailure.invalidParameter("slug", "a slug matches ^[a-z0-9][a-z0-9-]{0,62}$")
    }
    var board = try call.body(Board.self)
    guard board.slug == slug else {
      throw VoteFirstFailure.validation("slug", "the body's slug differs from the path's")
    }
    if let problem = VoteFirstLimits.problems(inName: board.name, field: "name").first {
      throw VoteFirstFailure.validation(problem)
    }
    if slug == Board.roadmapSlug { board.isPublic = true }
    let stored = try await boards.write { tables in
      _ = try BoardProject.ensure(tables, call.project, now: call.now)
      let id =
        try tables.item(.board, call.project, key: slug)?.id
        ?? tables.nextID(call.project, "board")
      try tables.put(.board, try BoardProject.row(board, project: call.project, id: id))
      return board
    }
    return try .json(stored)
  }

  /// `DELETE …/boards/:slug`: not the roadmap board, and not while it holds features or
  /// columns.
  func deleteBoard(_ call: Call) async throws -> Answer {
    let slug = call.request.parameter("slug") ?? ""
    guard slug != Board.roadmapSlug else {
      throw VoteFirstFailure.validation("slug", "the roadmap board cannot be deleted")
    }
    try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      guard let row = try tables.item(.board, call.project, key: slug) else {
        throw VoteFirstFailure.notFound(Code.boardNotFound, "board \(slug)", call.project)
      }
      let features = try tables.featureCount(call.project, board: slug)
      let columns = project.stages.filter { $0.board == slug }.count
      if features > 0 || columns > 0 {
        throw VoteFirstFailure(
          409, Code.boardInUse,
          "board \(slug) holds \(Self.count(Int(features), "feature")) and "
            + "\(Self.count(columns, "column")): move or delete them first")
      }
      try tables.delete(.board, call.project, id: row.id)
    }
    return .noContent
  }

  /// `POST …/releases` and `PUT …/releases/:id`.
  func putRelease(_ call: Call, creating: Bool) async throws -> Answer {
    let id = creating ? nil : try call.id()
    var release = try call.body(Release.self)
    if let problem = VoteFirstLimits.problems(inName: release.title, field: "title").first {
      throw VoteFirstFailure.validation(problem)
    }
    if release.notes.unicodeScalars.count > VoteFirstLimits.maxNotes {
      throw VoteFirstFailure.validation(
        "notes", "notes are longer than \(VoteFirstLimits.maxNotes) characters")
    }
    var listed = Set<Int>()
    release.features = release.features.filter { listed.insert($0).inserted }
    let stored = try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      for (index, feature) in release.features.enumerated()
      where try tables.feature(call.project, id: Int64(feature)) == nil {
        throw VoteFirstFailure.validation("features[\(index)]", "there is no feature \(feature)")
      }
      if let id {
        guard try tables.item(.release, call.project, id: Int64(id)) != nil else {
          throw VoteFirstFailure.notFound(Code.releaseNotFound, "release \(id)", call.project)
        }
        release.id = id
      } else {
        release.id = Int(try tables.nextID(call.project, "release"))
      }
      try tables.put(.release, try Self.row(release, project: call.project))
      // One relation, seen from both sides: the features listed name this release (and leave
      // the list of the one they were in), the ones it no longer lists name none.
      var releases = ReleaseMembership(project: call.project)
      for row in try tables.features(call.project) {
        var content = try BoardJSON.decode(FeatureContent.self, row.doc)
        let isListed = listed.contains(Int(row.id))
        guard isListed ? content.release != release.id : content.release == release.id
        else { continue }
        content.release = isListed ? release.id : nil
        try tables.put(
          try BoardJSON.row(content, id: Int(row.id), project: project, createdAt: row.createdAt))
        if isListed { try releases.place(Int(row.id), in: release.id, tables) }
      }
      try releases.save(tables)
      return release
    }
    return try .json(stored, status: creating ? 201 : 200)
  }

  /// `DELETE …/releases/:id`.
  func deleteRelease(_ call: Call) async throws -> Answer {
    let id = try call.id()
    try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      guard try tables.delete(.release, call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.releaseNotFound, "release \(id)", call.project)
      }
      // Its features are in no release now (a feature naming a missing one would make the
      // project's export one that no import takes).
      for row in try tables.features(call.project) {
        var content = try BoardJSON.decode(FeatureContent.self, row.doc)
        guard content.release == id else { continue }
        content.release = nil
        try tables.put(
          try BoardJSON.row(content, id: Int(row.id), project: project, createdAt: row.createdAt))
      }
    }
    return .noContent
  }

  /// `GET …/suggestions[?state=…][&limit=N][&cursor=C]`: oldest first; every one asked for
  /// without `limit`, else pages of `limit` (1–100) with `next` while more remain.
  func listSuggestions(_ call: Call) async throws -> Answer {
    typealias Query = VoteFirstContract.Query
    let request = call.request
    let state = request.query(Query.state).map(Suggestion.State.init)
    if let state, ![.pending, .approved, .rejected].contains(state) {
      throw VoteFirstFailure.invalidParameter(
        "state", "state is one of pending, approved, rejected")
    }
    let limit = try Self.pageSize(request.query(Query.limit))
    var after: (sort: Int64, id: Int64)?
    if let text = request.query(Query.cursor) {
      guard limit != nil, let position = Self.suggestionPosition(text) else {
        throw VoteFirstFailure(
          400, Code.invalidCursor,
          "this cursor was not handed out by GET …/suggestions with a limit")
      }
      after = position
    }
    let list = try await boards.write { tables in
      _ = try BoardProject.ensure(tables, call.project, now: call.now)
      // One row past a page tells whether another follows.
      let rows = try tables.items(
        .suggestion, call.project, key: state?.rawValue, after: after,
        limit: limit.map { $0 + 1 } ?? .max)
      let page = rows.prefix(limit ?? rows.count)
      return SuggestionList(
        suggestions: try page.map { try BoardJSON.decode(Suggestion.self, $0.doc) },
        next: rows.count > page.count ? page.last.map { "\($0.sort).\($0.id)" } : nil)
    }
    return try .json(list)
  }

  /// The position a suggestions cursor (`SORT.ID`, as ``listSuggestions(_:)`` writes it)
  /// names, or nil when `text` is not one.
  static func suggestionPosition(_ text: String) -> (sort: Int64, id: Int64)? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let sort = Int64(parts[0]), let id = Int64(parts[1]), id > 0 else {
      return nil
    }
    return (sort, id)
  }

  /// `POST …/suggestions/:id/approve` (it becomes a feature) and `…/reject`.
  func decideSuggestion(_ call: Call, approve: Bool) async throws -> Answer {
    let id = try call.id()
    let approval = approve ? try call.body(SuggestionApproval.self, optional: true) : nil
    let decided = try await boards.write { tables in
      let project = try BoardProject.ensure(tables, call.project, now: call.now)
      guard let row = try tables.item(.suggestion, call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.suggestionNotFound, "suggestion \(id)", call.project)
      }
      var suggestion = try BoardJSON.decode(Suggestion.self, row.doc)
      guard suggestion.state == .pending else {
        throw VoteFirstFailure(
          409, Code.alreadyDecided, "suggestion \(id) is already \(suggestion.state)")
      }
      if approve {
        let featureID = try tables.nextID(call.project, "feature")
        let content = FeatureContent(
          ref: try Self.approvedRef(approval?.ref, id: featureID, tables, call.project),
          title: suggestion.title, description: suggestion.description,
          // On the board of the stage it goes to (a custom board's column), else the roadmap.
          board: approval?.stage.flatMap { project.stage($0)?.board } ?? Board.roadmapSlug,
          stage: approval?.stage)
        if let problem = VoteFirstLimits.problems(in: content).first {
          throw VoteFirstFailure.validation(problem)
        }
        if let problem = project.referenceProblems(content, releases: []).first {
          throw VoteFirstFailure.validation(problem)
        }
        // In no release: nothing for the releases' lists to follow.
        var known = BatchState(
          byRef: [:], imported: [:], nextID: featureID,
          releases: ReleaseMembership(project: call.project))
        let outcome = try Self.store(
          FeatureUpsert(content: content), tables, project, now: call.now, known: &known)
        suggestion.feature = outcome.id
        suggestion.state = .approved
      } else {
        suggestion.state = .rejected
      }
      // It keeps its place in the list: its date is stored to the second, its place to the
      // millisecond it arrived (a page's cursor must not see it move).
      var decided = try Self.row(suggestion, project: call.project)
      decided.sort = row.sort
      try tables.put(.suggestion, decided)
      return suggestion
    }
    return try .json(decided)
  }

  /// The ref of the feature `id` an approval makes: the one `asked` (409 `ref_conflict` when
  /// a feature has it), else `vf-ID`, or `vf-ID-2`, `vf-ID-3`… while that one is taken.
  ///
  /// A feature with a ref counts its votes in the counter its ref names, so the Roadmap JSON
  /// the board publishes (whose id for it is its ref) is voted on in that same counter.
  static func approvedRef(_ asked: String?, id: Int64, _ tables: BoardTables, _ project: String)
    throws -> String
  {
    if let asked {
      if let other = try feature(tables, project, ref: asked) {
        throw VoteFirstFailure(
          409, Code.refConflict, "feature \(other.id) already has the ref \(asked)",
          field: "ref")
      }
      return asked
    }
    var ref = "vf-\(id)"
    var suffix = 1
    while try tables.feature(project, ref: ref) != nil {
      suffix += 1
      ref = "vf-\(id)-\(suffix)"
    }
    return ref
  }

  /// The stored row of a release.
  static func row(_ release: Release, project: String) throws -> BoardItemRow {
    BoardItemRow(
      project: project, id: Int64(release.id), key: "",
      sort: Int64((release.date.timeIntervalSince1970 * 1000).rounded()),
      doc: try BoardJSON.encode(release))
  }
}
