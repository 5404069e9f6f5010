import Foundation

/// The votes of several hand-overs (``SQLiteVoteStore/submitBatch(_:completion:)``, one per
/// I/O round of the server) gathered into one job of the writer: a hand-over made while the
/// writer has not yet begun running the last one joins it.
///
/// So a group commit runs each counter's votes together however many rounds they came in:
/// one read and one write for a counter's anonymous increments, one job and one result array
/// per group, where it used to be one job per round and a read and a write per round and
/// counter (measured at 64 connections on `/hit`: about four rounds per group commit, each
/// with its own statements). What each vote is told stays its own.
final class VoteGatherer: @unchecked Sendable {
  /// The most votes one gathering takes; a hand-over past it begins the next one.
  static let mostVotes = 4096

  private let lock = NSLock()
  /// The gathering new hand-overs join, until the writer begins running it.
  private var open: VoteGathering?
  /// How many gatherings were begun (for tests: how many jobs the hand-overs made).
  private var begun = 0

  /// How many gatherings were begun so far.
  var gatheringsBegun: Int {
    lock.lock()
    defer { lock.unlock() }
    return begun
  }

  /// Adds a hand-over's `mutations`, told their results in order by `finish`. Returns the
  /// gathering to queue for the writer when this hand-over began a new one (nil when it
  /// joined one already queued).
  func add(
    _ mutations: [CounterMutation],
    finish: @escaping @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void
  ) -> VoteGathering? {
    lock.lock()
    defer { lock.unlock() }
    if let open, open.mutations.count + mutations.count <= Self.mostVotes {
      open.append(mutations, finish)
      return nil
    }
    let gathering = VoteGathering()
    gathering.append(mutations, finish)
    open = gathering
    begun += 1
    return gathering
  }

  /// Closes `gathering` to new hand-overs and returns its votes (on the writer, as it begins
  /// running it, or when it is answered without running).
  func seal(_ gathering: VoteGathering) -> [CounterMutation] {
    lock.lock()
    defer { lock.unlock() }
    if open === gathering { open = nil }
    return gathering.mutations
  }
}

/// One gathering's votes and who to tell: see ``VoteGatherer``. Changed only under the
/// gatherer's lock until sealed, read only after.
final class VoteGathering: @unchecked Sendable {
  /// One hand-over: where its votes are in ``mutations``, and its completion.
  private struct Part {
    let range: Range<Int>
    let finish: @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void
  }

  private(set) var mutations: [CounterMutation] = []
  private var parts: [Part] = []

  fileprivate func append(
    _ more: [CounterMutation],
    _ finish: @escaping @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void
  ) {
    let start = mutations.count
    if mutations.isEmpty { mutations = more } else { mutations.append(contentsOf: more) }
    parts.append(Part(range: start..<mutations.count, finish: finish))
  }

  /// Tells each hand-over its votes' results (`outcome`'s, in the order of ``mutations``), or
  /// the failure of the whole for each of its votes. Call once, after sealing.
  func answer(_ outcome: Result<[Result<MutationResult, VoteStoreError>], VoteStoreError>) {
    if parts.count == 1, case .success(let all) = outcome, all.count == mutations.count {
      return parts[0].finish(all)  // one hand-over: its results as they are
    }
    for part in parts {
      switch outcome {
      case .success(let all) where all.count == mutations.count:
        part.finish(Array(all[part.range]))
      case .success:
        part.finish(Array(repeating: .failure(.closed), count: part.range.count))
      case .failure(let error):
        part.finish(Array(repeating: .failure(error), count: part.range.count))
      }
    }
  }
}
