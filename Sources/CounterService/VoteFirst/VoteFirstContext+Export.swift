import Foundation
import VoteFirstAPI
import VoteStore

/// `GET …/export` and `POST …/import`: the whole project as one document, and back.
extension VoteFirstContext {
  /// `GET …/export`: one snapshot of the project, its features with their votes.
  func export(_ call: Call) async throws -> Answer {
    _ = try await boards.write { tables in
      try BoardProject.ensure(tables, call.project, now: call.now)
    }
    let document = try await boards.read { tables in
      guard let project = try BoardProject.load(tables, call.project) else {
        throw VoteFirstFailure.projectNotFound(call.project)
      }
      let features = try tables.features(call.project).map { row in
        ProjectExport.ExportedFeature(
          feature: try BoardJSON.feature(
            row, votes: try tables.votes(call.project, key: row.counterKey), voted: false,
            showViews: true),
          importedVotes: Int(
            try tables.importedOrAnonymousVotes(call.project, key: row.counterKey) ?? 0))
      }
      let suggestions = try tables.items(.suggestion, call.project).map {
        try BoardJSON.decode(Suggestion.self, $0.doc)
      }
      return ProjectExport(
        project: call.project, exportedAt: Date(timeIntervalSince1970: Double(call.now) / 1000),
        settings: project.settings, boards: project.boards, stages: project.stages,
        tags: project.tags, features: features,
        releases: try Self.releases(tables, call.project), suggestions: suggestions)
    }
    return try .json(document)
  }

  /// `POST …/import`: recreates an export in an empty project, every object with its id, in
  /// one transaction. A feature's counter that does not exist yet is created with the
  /// feature's `votes` as anonymous votes; one that exists is left alone.
  func importProject(_ call: Call) async throws -> Answer {
    var document = try call.body(ProjectExport.self)
    try Self.check(document)
    Self.joinReleases(&document)
    let result = try await boards.write { tables in
      let existing = try BoardProject.ensure(tables, call.project, now: call.now)
      guard try tables.isEmpty(call.project) else {
        throw VoteFirstFailure(
          409, Code.projectNotEmpty,
          "project \(call.project) already holds data; import into an empty project")
      }
      guard
        VoteFirstLimits.isValidVoteKeyTemplate(document.settings.voteKeyTemplate)
      else {
        throw VoteFirstFailure.validation("settings.voteKeyTemplate", "not a valid key template")
      }
      try tables.updateSettings(call.project, try BoardJSON.encode(document.settings))
      for (index, board) in document.boards.enumerated() {
        let id =
          try tables.item(.board, call.project, key: board.slug)?.id
          ?? tables.nextID(call.project, "board")
        var board = board
        if board.slug == Board.roadmapSlug { board.isPublic = true }
        guard VoteFirstLimits.isValidSlug(board.slug) else {
          throw VoteFirstFailure.validation("boards[\(index)].slug", "not a board slug")
        }
        try tables.put(.board, try BoardProject.row(board, project: call.project, id: id))
      }
      for stage in document.stages {
        try tables.put(.stage, try BoardProject.row(stage, project: call.project))
      }
      for tag in document.tags {
        try tables.put(
          .tag,
          BoardItemRow(
            project: call.project, id: Int64(tag.id), key: "", sort: 0,
            doc: try BoardJSON.encode(tag)))
      }
      for release in document.releases {
        try tables.put(.release, try Self.row(release, project: call.project))
      }
      guard var project = try BoardProject.load(tables, call.project) else {
        throw VoteStoreError(.other, "project \(call.project) vanished during an import")
      }
      project.createdAt = existing.createdAt
      let releases = Set(document.releases.map(\.id))
      for (index, exported) in document.features.enumerated() {
        let feature = exported.feature
        if let problem = project.referenceProblems(
          feature.content, releases: releases, at: "features[\(index)]"
        ).first {
          throw VoteFirstFailure.validation(problem)
        }
        let row = try BoardJSON.row(
          feature.content, id: feature.id, project: project,
          createdAt: Int64((feature.createdAt.timeIntervalSince1970 * 1000).rounded()))
        try tables.put(row)
        if try !tables.counterExists(call.project, key: row.counterKey) {
          try tables.setAnonymousVotes(
            call.project, key: row.counterKey, count: Int64(max(0, feature.votes)),
            imported: Int64(max(0, exported.importedVotes)), now: call.now)
        }
      }
      for suggestion in document.suggestions {
        try tables.put(.suggestion, try Self.row(suggestion, project: call.project))
      }
      let sequences: [(String, [Int])] = [
        ("feature", document.features.map(\.feature.id)), ("stage", document.stages.map(\.id)),
        ("tag", document.tags.map(\.id)), ("release", document.releases.map(\.id)),
        ("suggestion", document.suggestions.map(\.id)),
      ]
      for (kind, ids) in sequences {
        if let top = ids.max() { try tables.reserveID(call.project, kind, atLeast: Int64(top)) }
      }
      try tables.reserveID(call.project, "board", atLeast: Int64(document.boards.count + 1))
      return ImportResult(
        features: document.features.count, stages: document.stages.count,
        tags: document.tags.count, releases: document.releases.count,
        suggestions: document.suggestions.count)
    }
    return try .json(result)
  }

  /// Makes an export's release relation one, as every write keeps it. A feature is in the
  /// release its `release` names, else in the first release (as exported: newest first) that
  /// lists it; a release lists its features in its own order, then the others it gained by
  /// id. Exports of builds before the relation was kept can disagree (a release listing a
  /// feature that names none, a feature naming a release that does not list it), and were
  /// imported so, the two sides disagreeing for good. A release that does not exist is left
  /// named, for the import to refuse.
  static func joinReleases(_ document: inout ProjectExport) {
    let releases = Set(document.releases.map(\.id))
    var member: [Int: Int] = [:]
    for exported in document.features {
      if let release = exported.feature.content.release, releases.contains(release) {
        member[exported.feature.id] = release
      }
    }
    for release in document.releases {
      for feature in release.features where member[feature] == nil {
        member[feature] = release.id
      }
    }
    for index in document.features.indices {
      let id = document.features[index].feature.id
      if let release = member[id] { document.features[index].feature.content.release = release }
    }
    for index in document.releases.indices {
      let id = document.releases[index].id
      var listed = Set<Int>()
      let kept = document.releases[index].features.filter {
        member[$0] == id && listed.insert($0).inserted
      }
      let gained = member.filter { $0.value == id && !listed.contains($0.key) }.keys.sorted()
      document.releases[index].features = kept + gained
    }
  }

  /// The largest id an import takes: 2^53 − 1.
  static let maxImportedID: Int64 = 9_007_199_254_740_991

  /// An export's own consistency: positive unique ids, unique refs, limits.
  static func check(_ document: ProjectExport) throws {
    func unique(_ ids: [Int], _ field: String) throws {
      var seen = Set<Int>()
      for (index, id) in ids.enumerated() {
        // At most 2^53 − 1, what a JavaScript client reads exactly. An id near Int64.max was
        // stored, and its sequence's next id overflowed: the trap ended `roadmapctl serve`.
        guard id > 0, Int64(id) <= maxImportedID, seen.insert(id).inserted else {
          throw VoteFirstFailure.validation(
            "\(field)[\(index)].id",
            "ids must be positive, unique and at most \(maxImportedID) (\(id))")
        }
      }
    }
    try unique(document.features.map(\.feature.id), "features")
    try unique(document.stages.map(\.id), "stages")
    try unique(document.tags.map(\.id), "tags")
    try unique(document.releases.map(\.id), "releases")
    try unique(document.suggestions.map(\.id), "suggestions")
    var refs = Set<String>()
    for (index, exported) in document.features.enumerated() {
      let path = "features[\(index)]"
      try check(FeatureUpsert(content: exported.feature.content), at: path)
      if let ref = exported.feature.ref, !refs.insert(ref).inserted {
        throw VoteFirstFailure(
          409, Code.refConflict, "two features have the ref \(ref)", field: path + ".ref")
      }
      // What no call can store: stored anyway, a count was silently 0.
      if exported.feature.votes < 0 {
        throw VoteFirstFailure.validation(path + ".votes", "votes cannot be negative")
      }
      if exported.importedVotes < 0 {
        throw VoteFirstFailure.validation(
          path + ".importedVotes", "importedVotes cannot be negative")
      }
      // Said here with their fields: the store's own refusal named none.
      for (name, count) in [
        ("votes", exported.feature.votes), ("importedVotes", exported.importedVotes),
      ]
      where Int64(count) > CounterLimits.maximum {
        throw VoteFirstFailure.validation(
          path + "." + name, "\(name) lies between 0 and \(CounterLimits.maximum)")
      }
    }
    // Names no admin call stores (empty, past 254), and a stage on a board the export does not
    // hold: imported, the board drew them, and `roadmapctl restore` refused every backup of
    // the project after.
    func name(_ text: String, _ field: String) throws {
      if let problem = VoteFirstLimits.problems(inName: text, field: field).first {
        throw VoteFirstFailure.validation(problem)
      }
    }
    for (index, board) in document.boards.enumerated() {
      try name(board.name, "boards[\(index)].name")
    }
    let slugs = Set(document.boards.map(\.slug)).union([Board.roadmapSlug])
    for (index, stage) in document.stages.enumerated() {
      try name(stage.name, "stages[\(index)].name")
      guard slugs.contains(stage.board) else {
        throw VoteFirstFailure.validation(
          "stages[\(index)].board", "there is no board \(stage.board) in the export")
      }
    }
    for (index, tag) in document.tags.enumerated() {
      try name(tag.name, "tags[\(index)].name")
    }
    for (index, release) in document.releases.enumerated() {
      try name(release.title, "releases[\(index)].title")
      if release.notes.unicodeScalars.count > VoteFirstLimits.maxNotes {
        throw VoteFirstFailure.validation(
          "releases[\(index)].notes",
          "notes are longer than \(VoteFirstLimits.maxNotes) characters")
      }
    }
    for (index, suggestion) in document.suggestions.enumerated() {
      let draft = SuggestionDraft(title: suggestion.title, description: suggestion.description)
      if let problem = VoteFirstLimits.problems(in: draft).first {
        throw VoteFirstFailure.validation(
          "suggestions[\(index)]." + (problem.field ?? "title"), problem.message)
      }
    }
    // References to features the project will not hold: no admin call leaves them behind
    // (deleting a feature takes it off every release), and a board would show them dangling.
    let features = Set(document.features.map(\.feature.id))
    for (index, release) in document.releases.enumerated() {
      for (position, feature) in release.features.enumerated() where !features.contains(feature) {
        throw VoteFirstFailure.validation(
          "releases[\(index)].features[\(position)]", "there is no feature \(feature) in the export"
        )
      }
    }
  }
}
