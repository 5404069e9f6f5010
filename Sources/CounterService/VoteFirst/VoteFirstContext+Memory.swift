import Foundation
import VoteFirstAPI
import VoteStore

/// The readers' calls answered from the ``BoardView`` (SQLite): the board from memory, the
/// vote counts from the vote store at read time, the asker's own votes from the database.
extension VoteFirstContext {
  /// The project's model, or a 404 when it does not exist.
  func model(_ project: String, _ view: BoardView) async throws -> BoardModel {
    guard let model = try await view.model(project) else {
      throw VoteFirstFailure.projectNotFound(project)
    }
    return model
  }

  /// `GET …/features` from the model: filtered in memory; ordered by a list made once
  /// (`newest`, `discussed`) or by a pass that keeps the best `limit + 1` (`top`,
  /// `trending`, which need every candidate's count).
  func features(
    _ call: Call, _ model: BoardModel, _ filter: BoardFeatureFilter, _ listing: FeatureListing,
    after cursor: FeatureListing.Cursor?, limit: Int, voter: String?
  ) async throws -> Answer {
    if let slug = filter.board {
      guard model.project.board(slug)?.isPublic == true else {
        throw VoteFirstFailure.notFound(Code.boardNotFound, "public board \(slug)", call.project)
      }
    }
    // Filters and sort keys read the model's facts, by index: no shared string is retained
    // per feature (concurrent requests would contend for its reference count).
    let board = filter.board.map { model.boardSlugs[$0] ?? -1 }
    let search = filter.search.map(ByteSearch.init)
    func matches(_ index: Int) -> Bool {
      let facts = model.facts[index]
      guard facts.isVisible else { return false }
      if let board, facts.board != board { return false }
      if let stage = filter.stage {
        if facts.stage != stage { return false }
      } else if facts.isArchived {
        return false
      }
      if let tag = filter.tag, !model.items[index].row.tags.contains(tag) { return false }
      if let search, !search.occurs(in: model.items[index].row.search) {
        return false
      }
      return true
    }
    let page: (ids: [Int64], next: String?)
    var votes: CounterValues
    if listing.needsVotes {
      // One stage's listing reads only that stage's features (a board page with 1,000
      // stages over 20,000 features read all of them for every column: 2.4 s).
      let candidates =
        filter.stage.map { (model.byStage[$0] ?? []).filter(matches) }
        ?? model.facts.indices.filter(matches)
      let keys =
        candidates.count == model.counterKeys.count
        ? model.counterKeys : candidates.map { model.counterKeys[$0] }
      votes = try await store.values(namespace: call.project, keys: keys)
      page = listing.page(
        candidates.lazy.map { index in
          let facts = model.facts[index]
          return (
            key: listing.key(
              votes: votes[model.counterKeys[index]] ?? 0, createdAt: facts.createdAt,
              comments: facts.comments),
            id: facts.id
          )
        }, after: cursor, limit: limit)
    } else {
      let order = listing.order == .newest ? model.newest : model.discussed
      let newest = listing.order == .newest
      page = listing.page(
        ordered: order.lazy.filter(matches).map { index in
          let facts = model.facts[index]
          return (
            key: newest ? Double(facts.createdAt) : Double(facts.comments), id: facts.id
          )
        }, after: cursor, limit: limit)
      votes = [:]
    }
    let items = page.ids.compactMap { model.index[$0].map { model.items[$0] } }
    if !listing.needsVotes, !items.isEmpty {
      votes = try await store.values(namespace: call.project, keys: items.map(\.row.counterKey))
    }
    let voted = try await self.voted(items, call.project, voter)
    let bodies = try items.map { item in
      try item.json.bytes(
        votes: votes[item.row.counterKey] ?? 0, voted: voted.contains(item.row.id))
    }
    return Answer(status: 200, body: Data(try FeatureJSON.page(bodies, next: page.next)))
  }

  /// The ids of `items` on which `voter` holds a vote (none without a voter), read in one
  /// snapshot.
  func voted(_ items: [BoardModel.Item], _ project: String, _ voter: String?) async throws
    -> Set<Int64>
  {
    guard let voter, !items.isEmpty else { return [] }
    let keys = items.map { (id: $0.row.id, key: $0.row.counterKey) }
    return try await boards.read { tables in
      var voted: Set<Int64> = []
      for item in keys where try tables.hasVoted(project, key: item.key, voter: voter) {
        voted.insert(item.id)
      }
      return voted
    }
  }
}
