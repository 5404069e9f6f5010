import Foundation
import VoteFirstAPI
import VoteStore

/// The readers' calls: board, features, feature, releases. No key needed.
extension VoteFirstContext {
  /// `GET …/board[?board=SLUG]`.
  func board(_ call: Call) async throws -> Answer {
    let slug = call.request.query(VoteFirstContract.Query.board) ?? Board.roadmapSlug
    if let view {
      guard let body = try await model(call.project, view).boardBodies[slug] else {
        throw VoteFirstFailure.notFound(Code.boardNotFound, "public board \(slug)", call.project)
      }
      return Answer(status: 200, body: body)
    }
    let snapshot = try await boards.read { tables in
      guard let project = try BoardProject.load(tables, call.project) else {
        throw VoteFirstFailure.projectNotFound(call.project)
      }
      guard let board = project.board(slug), board.isPublic else {
        throw VoteFirstFailure.notFound(Code.boardNotFound, "public board \(slug)", call.project)
      }
      return BoardSnapshot(
        project: call.project, settings: project.settings, board: board,
        stages: project.stages.filter { $0.board == slug }, tags: project.tags,
        boards: project.boards.filter { $0.isPublic && $0.slug != Board.roadmapSlug })
    }
    return try .json(snapshot)
  }

  /// `GET …/features` with `board`, `stage`, `tag`, `q`, `order`, `limit`, `cursor`.
  func features(_ call: Call) async throws -> Answer {
    let request = call.request
    typealias Query = VoteFirstContract.Query
    let order = FeatureOrder(rawValue: request.query(Query.order) ?? FeatureOrder.top.rawValue)
    guard FeatureOrder.allCases.contains(order) else {
      throw VoteFirstFailure.invalidParameter(
        Query.order, "order is one of top, trending, newest, discussed")
    }
    let limit = try Self.pageSize(request.query(Query.limit)) ?? VoteFirstLimits.defaultPageSize
    let stage = try Self.optionalID(request.query(Query.stage), Query.stage)
    let tag = try Self.optionalID(request.query(Query.tag), Query.tag)
    let boardSlug = request.query(Query.board)
    var cursor: FeatureListing.Cursor?
    if let text = request.query(Query.cursor) {
      guard let decoded = FeatureListing.Cursor(text: text), decoded.order == order.rawValue else {
        throw VoteFirstFailure(
          400, Code.invalidCursor, "this cursor was not handed out for order=\(order.rawValue)")
      }
      cursor = decoded
    }
    if let q = request.query(Query.search), q.unicodeScalars.count > VoteFirstLimits.maxSearch {
      throw VoteFirstFailure.invalidParameter(
        Query.search, "q is at most \(VoteFirstLimits.maxSearch) characters")
    }
    let search = request.query(Query.search).map(BoardJSON.searchForm).flatMap {
      $0.isEmpty ? nil : $0
    }
    let voter = try call.voter()
    let listing = FeatureListing(order: order, at: cursor?.at ?? call.now)
    if let view {
      let filter = BoardFeatureFilter(
        board: boardSlug, stage: stage.map(Int64.init), tag: tag.map(Int64.init), search: search)
      return try await features(
        call, model(call.project, view), filter, listing, after: cursor, limit: limit,
        voter: voter)
    }
    let page = try await boards.read { tables in
      guard let project = try BoardProject.load(tables, call.project) else {
        throw VoteFirstFailure.projectNotFound(call.project)
      }
      if let boardSlug {
        guard let board = project.board(boardSlug), board.isPublic else {
          throw VoteFirstFailure.notFound(
            Code.boardNotFound, "public board \(boardSlug)", call.project)
        }
      }
      let visible = Set(project.boards.filter(\.isPublic).map(\.slug))
      let archived = Set(project.stages.filter(\.isArchived).map { Int64($0.id) })
      let candidates = try tables.summaries(
        call.project,
        BoardFeatureFilter(
          board: boardSlug, stage: stage.map(Int64.init), tag: tag.map(Int64.init),
          search: search)
      ).filter { summary in
        visible.contains(summary.board)
          && (stage != nil || !(summary.stage.map(archived.contains) ?? false))
      }
      let (ids, next) = listing.page(candidates, after: cursor, limit: limit)
      let votes = Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0.votes) })
      let features = try tables.features(call.project, ids: ids).map { row in
        try BoardJSON.feature(
          row, votes: votes[row.id] ?? 0,
          voted: try voter.map {
            try tables.hasVoted(call.project, key: row.counterKey, voter: $0)
          } ?? false,
          showViews: project.settings.showViewCounts)
      }
      return FeaturePage(features: features, next: next)
    }
    return try .json(page)
  }

  /// `GET …/features/:id`.
  func feature(_ call: Call) async throws -> Answer {
    let id = try call.id()
    let voter = try call.voter()
    if let view {
      guard let item = try await model(call.project, view).visibleItem(Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.featureNotFound, "feature \(id)", call.project)
      }
      let votes = try await store.values(namespace: call.project, keys: [item.row.counterKey])
      let voted = try await self.voted([item], call.project, voter)
      return Answer(
        status: 200,
        body: Data(
          try item.json.bytes(
            votes: votes[item.row.counterKey] ?? 0, voted: voted.contains(item.row.id))))
    }
    let feature = try await boards.read { tables in
      let (project, row) = try Self.visibleFeature(tables, call.project, id)
      return try BoardJSON.feature(
        row, votes: try tables.votes(call.project, key: row.counterKey),
        voted: try voter.map { try tables.hasVoted(call.project, key: row.counterKey, voter: $0) }
          ?? false,
        showViews: project.settings.showViewCounts)
    }
    return try .json(feature)
  }

  /// `GET …/releases`: newest first.
  func releases(_ call: Call) async throws -> Answer {
    if let view {
      return Answer(status: 200, body: try await model(call.project, view).releasesBody)
    }
    let list = try await boards.read { tables in
      guard try tables.project(call.project) != nil else {
        throw VoteFirstFailure.projectNotFound(call.project)
      }
      let visible = try Self.visibleFeatureIDs(tables, call.project)
      return ReleaseList(
        releases: try Self.releases(tables, call.project).map {
          Self.readable($0, isVisible: visible.contains)
        })
    }
    return try .json(list)
  }

  /// `GET …/releases/:id`.
  func release(_ call: Call) async throws -> Answer {
    let id = try call.id()
    if let view {
      guard let body = try await model(call.project, view).releaseBodies[id] else {
        throw VoteFirstFailure.notFound(Code.releaseNotFound, "release \(id)", call.project)
      }
      return Answer(status: 200, body: body)
    }
    let release = try await boards.read { tables in
      guard try tables.project(call.project) != nil else {
        throw VoteFirstFailure.projectNotFound(call.project)
      }
      guard let row = try tables.item(.release, call.project, id: Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.releaseNotFound, "release \(id)", call.project)
      }
      let visible = try Self.visibleFeatureIDs(tables, call.project)
      return Self.readable(
        try BoardJSON.decode(Release.self, row.doc), isVisible: visible.contains)
    }
    return try .json(release)
  }

  /// Every release of the project, newest first.
  static func releases(_ tables: BoardTables, _ project: String) throws -> [Release] {
    try tables.items(.release, project).map { try BoardJSON.decode(Release.self, $0.doc) }
      .sorted { ($0.date, $0.id) > ($1.date, $1.id) }
  }

  /// `release` as readers see it: only the features they may see (on a public board) in its
  /// list. A feature on a board that is not public is not found for them, so its id is not
  /// theirs to see here either (the export and the admin's answers keep the whole list).
  static func readable(_ release: Release, isVisible: (Int64) -> Bool) -> Release {
    var shown = release
    shown.features = release.features.filter { isVisible(Int64($0)) }
    return shown
  }

  /// The ids of the project's features that readers may see: those on a public board.
  static func visibleFeatureIDs(_ tables: BoardTables, _ project: String) throws -> Set<Int64> {
    guard let loaded = try BoardProject.load(tables, project) else { return [] }
    let visible = Set(loaded.boards.filter(\.isPublic).map(\.slug))
    return Set(
      try tables.summaries(project, BoardFeatureFilter()).filter { visible.contains($0.board) }
        .map(\.id))
  }

  /// The project and the feature `id`, when readers may see it (it is on a public board).
  static func visibleFeature(_ tables: BoardTables, _ project: String, _ id: Int) throws
    -> (BoardProject, BoardFeatureRow)
  {
    guard let loaded = try BoardProject.load(tables, project) else {
      throw VoteFirstFailure.projectNotFound(project)
    }
    guard let row = try tables.feature(project, id: Int64(id)),
      loaded.board(row.board)?.isPublic == true
    else {
      throw VoteFirstFailure.notFound(Code.featureNotFound, "feature \(id)", project)
    }
    return (loaded, row)
  }

  /// A `limit` query parameter: a page size from 1 to ``VoteFirstLimits/maxPageSize`` when
  /// present.
  static func pageSize(_ text: String?) throws -> Int? {
    guard let text else { return nil }
    guard let value = Int(text), (1...VoteFirstLimits.maxPageSize).contains(value) else {
      throw VoteFirstFailure.invalidParameter(
        VoteFirstContract.Query.limit,
        "limit is a whole number from 1 to \(VoteFirstLimits.maxPageSize)")
    }
    return value
  }

  /// A query parameter that must be a positive id when present.
  static func optionalID(_ text: String?, _ name: String) throws -> Int? {
    guard let text else { return nil }
    guard let id = Int(text), id > 0 else {
      throw VoteFirstFailure.invalidParameter(name, "\(name) must be a positive integer")
    }
    return id
  }
}
