import Foundation
import RoadmapFormat

extension DurableVoter {
  /// Sends the offline queue in order. Accepted votes update the voted state; votes the server
  /// refuses (``VotingError/Kind/refused``, a 4xx) are undone and reported. Any other failure
  /// (offline, timed out, rate limited, server error, an answer that is not a count, a
  /// cancelled task) stops the sending and leaves that vote and the rest queued, for the next
  /// flush.
  @discardableResult
  public func flush() async throws(VotingError) -> FlushReport {
    try await gate.run { () throws(VotingError) in try await sendQueue() }
  }

  /// The refusals of queued votes sent by an implicit flush (before another call) since the
  /// last time they were taken, oldest first; taking them clears the list. Each comes with the
  /// error as the server gave it (its status, reason and message).
  public func takeRefusals() throws(VotingError) -> [FlushReport.Refusal] {
    let stored = try ledger.update { state in
      defer { state.refusals = [] }
      return state.refusals
    }
    return stored.map { FlushReport.Refusal(vote: $0.vote, error: $0.error) }
  }

  /// Sends the queue if it holds anything; failures stay in the queue (and refusals in the
  /// state file, for ``takeRefusals()``).
  func flushIfQueued() async {
    guard let state = try? ledger.state(), !state.queue.isEmpty else { return }
    _ = try? await gate.run { () throws(VotingError) in try await sendQueue(keepRefusals: true) }
  }

  /// Sends the queue; the caller holds the gate.
  func sendQueue(keepRefusals: Bool = false) async throws(VotingError) -> FlushReport {
    var report = FlushReport()
    while let next = try ledger.state().queue.first {
      let feature = RoadmapFeature(id: next.featureID)
      let count: Int
      do throws(VotingError) {
        count =
          next.action == .vote
          ? try await base.castVote(for: feature) : try await base.withdrawVote(for: feature)
      } catch {
        // Only a refusal drops a queued vote: anything else (a cancelled task included, which
        // surfaces as another kind) may pass, so the vote waits for the next flush.
        if Task.isCancelled || error.kind != .refused {
          report.stoppedBy = error
          break
        }
        try ledger.update { state in
          state.dequeue(next)
          if keepRefusals { state.refusals.append(VoteLedger.StoredRefusal(next, error)) }
        }
        report.refused.append(FlushReport.Refusal(vote: next, error: error))
        continue
      }
      lastKnown.set(next.featureID, count)
      report.sent.append(next)
      // The server counted it: even when the file cannot record that, this process does (so it
      // is not sent again from here), and sending stops until the file can be written.
      if let failure = ledger.record({ state in
        state.dequeue(next)
        state.confirm(next.action, next.featureID)
      }) {
        report.stoppedBy = failure
        break
      }
    }
    report.remaining = try ledger.state().queue.count
    return report
  }

  /// One vote or unvote, holding the gate.
  func write(_ action: PendingVote.Action, _ feature: RoadmapFeature) async throws(VotingError)
    -> Int
  {
    if feature.isFinished == true {
      throw .finished(feature.id)
    }
    return try await gate.run { () throws(VotingError) in
      var state = try ledger.state()
      if !state.queue.isEmpty {
        _ = try await sendQueue(keepRefusals: true)
        state = try ledger.state()
      }
      let standing = state.hasVoted(feature.id)
      if standing == (action == .vote) {
        // Already as asked: send nothing (one vote per install, even on anonymous counters).
        return try await currentCount(feature, state)
      }
      if !state.queue.isEmpty {
        return try queue(action, feature)
      }
      do throws(VotingError) {
        let count =
          action == .vote
          ? try await base.castVote(for: feature) : try await base.withdrawVote(for: feature)
        lastKnown.set(feature.id, count)
        // The server counted it, so this is the answer even when the file cannot record it:
        // this process then still knows the vote stands (and sends no second one), and the next
        // write that succeeds saves it.
        ledger.record { $0.confirm(action, feature.id) }
        return count
      } catch  where queues(error) {
        return try queue(action, feature)
      }
    }
  }

  /// Whether a vote or unvote that failed with `error` waits in the queue instead of failing:
  /// offline (it was not sent), or, where the base voter's writes count once however often
  /// they are sent (``RepeatableWrites``: a voter id on `roadmapctl serve`, VoteFirst), timed
  /// out, rate limited, a server error, or cut short by the cancellation of the calling task
  /// (it may or may not have been counted, and sent again it changes nothing). Otherwise it
  /// would be lost while the app shows it as cast. An anonymous write that got no answer could
  /// count twice if sent again, so it fails.
  func queues(_ error: VotingError) -> Bool {
    let repeatable = (base as? any RepeatableWrites)?.writesAreRepeatable == true
    switch error.kind {
    case .offline: return true
    case .timedOut, .rateLimited, .serverError: return repeatable
    // A refusal is the server's answer: the vote was not counted, whatever the task is. A
    // local file that failed (the voter id's) kept the vote from being sent at all.
    case .refused, .storage: return false
    // The request may have left before the cancel (the transport reports it as
    // `.invalidRequest`, "… was cancelled"), so the server may have counted it. Only that
    // failure: one that sending again cannot cure (a URL that cannot be built, TLS) would
    // stay at the head of the queue, and every later vote would wait behind it.
    case .invalidRequest:
      return repeatable && Task.isCancelled && error.message.contains("cancelled")
    default: return false
    }
  }

  /// Queues `action` and answers the count it will make: the last count seen (else the
  /// feature's `votes`) with the queue's change.
  private func queue(_ action: PendingVote.Action, _ feature: RoadmapFeature) throws(VotingError)
    -> Int
  {
    let state = try ledger.update { state in
      state.enqueue(PendingVote(featureID: feature.id, action: action))
      return state
    }
    // With no count read yet, the feature's own `votes`: what the Roadmap package showed from
    // the JSON instead of reading a count (it answered 1 on a row that showed 80).
    let known = lastKnown.get(feature.id) ?? feature.votes ?? 0
    return VoteCount.adjusted(known, by: state.pendingDelta(feature.id))
  }

  /// The count as it stands, from the server if it answers, else the last one seen; offline
  /// with none seen since the app started, the feature's own `votes`, and at least this
  /// voter's own vote.
  private func currentCount(
    _ feature: RoadmapFeature, _ state: VoteLedger.State
  ) async throws(VotingError) -> Int {
    let raw: Int
    do throws(VotingError) {
      raw = try await base.count(for: feature)
      lastKnown.set(feature.id, raw)
    } catch {
      if let known = lastKnown.get(feature.id) {
        raw = known
      } else if error.kind == .offline {
        // The vote stands (or is queued) either way; answering nil would make an app show
        // one vote more, as for a vote that failed. The feature's own `votes` (the JSON's,
        // which the Roadmap package shows) is the best count there is.
        let shown = VoteCount.adjusted(feature.votes ?? 0, by: state.pendingDelta(feature.id))
        return max(state.hasVoted(feature.id) ? 1 : 0, shown)
      } else {
        throw error
      }
    }
    return VoteCount.adjusted(raw, by: state.pendingDelta(feature.id))
  }
}
