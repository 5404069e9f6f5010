import Foundation
import VoteFirstAPI
import VoteStore

/// The voters' calls: vote, unvote, suggest.
extension VoteFirstContext {
  /// `POST` / `DELETE …/features/:id/vote`: the feature's counter, through the same store call
  /// as the counting routes, with this voter's id.
  func vote(_ call: Call, up: Bool) async throws -> Answer {
    let id = try call.id()
    guard let voter = try call.voter() else {
      throw VoteFirstFailure(
        400, Code.missingVoter, "a vote needs a voter id in the X-Voter-ID header")
    }
    let key: String
    if let view {
      let model = try await model(call.project, view)
      guard let item = model.visibleItem(Int64(id)) else {
        throw VoteFirstFailure.notFound(Code.featureNotFound, "feature \(id)", call.project)
      }
      try Self.checkVoting(model.project, item.content, id: id)
      key = item.row.counterKey
    } else {
      key = try await boards.read { tables in
        let (project, row) = try Self.visibleFeature(tables, call.project, id)
        try Self.checkVoting(
          project, try BoardJSON.decode(FeatureContent.self, row.doc), id: id)
        return row.counterKey
      }
    }
    func mutation(_ key: String) -> CounterMutation {
      CounterMutation(
        namespace: call.project, key: key, delta: up ? 1 : -1, voter: voter,
        createIfMissing: up
          ? CounterCreation(namespace: call.project, key: key, value: 0) : nil)
    }
    var result = try await store.apply(mutation(key))
    var votes = result.record?.value ?? 0
    if key.hasPrefix(CounterNames.refLessKeyPrefix),
      let moved = try await movedKey(call.project, id: Int64(id), from: key)
    {
      // The feature had no ref when its key was read, and an admin gave it one before the
      // vote was applied (on this instance or another): that write merged the ref-less
      // counter into the ref's and deleted it, so this vote made it again, in a counter no
      // feature shows (acknowledged and lost), or an unvote found nothing there to take
      // (answered "not voted" while the vote stayed in the ref's counter). A vote is merged
      // after it (a voter in both counts once); an unvote is made again on the ref's counter.
      if up {
        votes = try await boards.write { tables in
          try tables.lockProject(call.project)
          return try tables.mergeCounter(call.project, from: key, into: moved, now: call.now)
        }
      } else {
        result = try await store.apply(mutation(moved))
        votes = result.record?.value ?? 0
      }
    }
    if result.outcome == .applied { metrics.recordVoteApplied() }
    let voted: Bool
    switch result.outcome {
    case .applied, .atZero: voted = up
    case .alreadyVoted: voted = true
    default: voted = false
    }
    return try .json(VoteState(votes: Int(votes), voted: voted))
  }

  /// The counter key of feature `id` now, read from the database (not the board view, which
  /// hears of a write only after its commit), when it is no longer `key`; nil when it still
  /// is or the feature is gone.
  func movedKey(_ project: String, id: Int64, from key: String) async throws -> String? {
    try await boards.read { tables in
      guard let row = try tables.feature(project, id: id), row.counterKey != key else {
        return nil
      }
      return row.counterKey
    }
  }

  /// Refuses a vote where voting is off: for the project, the feature's board or stage, or
  /// the feature (finished).
  static func checkVoting(_ project: BoardProject, _ content: FeatureContent, id: Int) throws {
    let stage = content.stage.flatMap(project.stage)
    if !project.settings.votingEnabled {
      throw VoteFirstFailure(
        403, Code.votingDisabledProject, "voting is off for project \(project.id)")
    }
    if project.board(content.board)?.votingEnabled == false {
      throw VoteFirstFailure(
        403, Code.votingDisabledBoard, "voting is off for board \(content.board)")
    }
    if stage?.votingEnabled == false {
      throw VoteFirstFailure(
        403, Code.votingDisabledStage, "voting is off for stage \(stage?.name ?? "")")
    }
    if content.isFinished ?? stage?.isFinished ?? false {
      throw VoteFirstFailure(
        403, Code.votingDisabledStage, "feature \(id) is finished: voting is closed")
    }
  }

  /// `POST …/suggestions`: 202, visible to nobody until approved.
  func submitSuggestion(_ call: Call) async throws -> Answer {
    let draft = try call.body(SuggestionDraft.self)
    if let problem = VoteFirstLimits.problems(in: draft).first {
      throw VoteFirstFailure.validation(problem)
    }
    let receipt = try await boards.write { tables in
      try tables.lockProject(call.project)
      guard let project = try BoardProject.load(tables, call.project) else {
        throw VoteFirstFailure.projectNotFound(call.project)
      }
      guard project.settings.suggestionsEnabled else {
        throw VoteFirstFailure(
          403, Code.suggestionsDisabled, "project \(call.project) accepts no suggestions")
      }
      let waiting = try tables.count(
        .suggestion, call.project, key: Suggestion.State.pending.rawValue)
      guard waiting < VoteFirstLimits.maxPendingSuggestions else {
        throw VoteFirstFailure(
          429, Code.suggestionsFull,
          "project \(call.project) has \(VoteFirstLimits.maxPendingSuggestions) suggestions "
            + "waiting for review; try again once some are decided")
      }
      let id = try tables.nextID(call.project, "suggestion")
      let suggestion = Suggestion(
        id: Int(id), title: draft.title, description: draft.description, state: .pending,
        createdAt: Date(timeIntervalSince1970: Double(call.now) / 1000))
      try tables.put(.suggestion, try Self.row(suggestion, project: call.project))
      return SuggestionReceipt(id: Int(id), state: .pending)
    }
    return try .json(receipt, status: 202)
  }

  /// The stored row of a suggestion.
  static func row(_ suggestion: Suggestion, project: String) throws -> BoardItemRow {
    BoardItemRow(
      project: project, id: Int64(suggestion.id), key: suggestion.state.rawValue,
      sort: Int64((suggestion.createdAt.timeIntervalSince1970 * 1000).rounded()),
      doc: try BoardJSON.encode(suggestion))
  }
}
