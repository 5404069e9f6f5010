import Foundation
import RoadmapFormat

/// A ``FeatureVoter`` that remembers which features this voter voted for, per namespace, and
/// keeps votes cast offline until they can be sent.
///
///     let identity = VoterIdentity.installation()
///     let voter = DurableVoter(
///       base: CountingAPIVoter(server: url, namespace: "com.example.app", identity: identity))
///
/// - **Voted state.** A feature counts as voted once the server accepted the vote (not before,
///   and not when it failed). ``hasVoted(for:)`` answers from it; a vote for a feature already
///   voted for, or an unvote of one not voted for, sends no vote and answers the current count
///   (one read),
///   so one install votes once even against an anonymous counter. The state is kept per
///   namespace, not in one global list.
/// - **Offline queue.** A vote or unvote that fails with ``VotingError/Kind/offline`` is queued
///   on disk, and so is one that timed out, was rate limited, met a server error or whose task
///   was cancelled while it was being sent, where the base voter's writes count once however
///   often they are sent (``CountingAPIVoter`` with a voter id on `roadmapctl serve`,
///   ``VoteFirstVoter``: it may or may not have been counted, and sent again it changes
///   nothing). It reads as
///   cast (``hasVoted(for:)``, and counts include it), and is sent, in order, by ``flush()``
///   or before the next call once the server answers again. A vote and an unvote
///   of the same feature cancel out in the queue. Only a queued vote the server refuses (a
///   ``VotingError/Kind/refused``) is undone and reported with its reason (``FlushReport``,
///   ``takeRefusals()``); any other failure, a cancelled flush included, keeps it queued. A
///   queued vote is sent again if the app dies between the server's answer and the file
///   update; with a voter id on `roadmapctl serve` that repeat changes nothing, so each vote
///   counts exactly once.
/// - **Files.** One JSON file per namespace in the directory the app chooses (else in its own,
///   ``VoterIdentity/appDirectory``, see ``init(base:namespace:directory:identity:)``), replaced
///   atomically (temporary file, `fsync`, `rename`): an app killed mid-write loses nothing.
///   A damaged file is a ``VotingError/Kind/storage`` error naming it, never a silent reset;
///   reads then answer the server's counts. A vote the server accepted is answered with its
///   count even when the file cannot record it; this process still knows the vote stands, and
///   the next write that succeeds saves it.
///
/// Calls from many tasks are safe, and so are several voters over one state file in one process
/// (they share one in-memory state); writes and queue sends run one at a time, in call order.
/// Several processes over one state file (an app and its extension in one App Group container)
/// lose none of each other's votes: every change is made to the file's current content under
/// a lock file (`votes-NS.json.lock`), taken only while the file is read and replaced.
public struct DurableVoter<Base: FeatureVoter>: FeatureVoter {
  /// The voter that talks to the server.
  public let base: Base
  /// The namespace whose state this voter keeps.
  public let namespace: String
  /// The voter identity to remove on ``forget()``, if any.
  public let identity: VoterIdentity?
  /// The state file's ledger, shared by every voter of that file in this process.
  let ledger: VoteLedger
  /// The ledger's gate: one write or queue send at a time for every voter of the file.
  var gate: SerialGate { ledger.gate }
  /// The last counts seen, shared by every voter of the file.
  var lastKnown: CountCache { ledger.lastKnown }

  /// Creates a voter keeping its state for `namespace` in `directory`.
  ///
  /// Without a directory the state goes to this app's own, ``VoterIdentity/appDirectory``.
  /// Earlier versions kept it in ``VoterIdentity/defaultDirectory`` itself, which every
  /// non-sandboxed macOS app (and Linux tool) of the user shares: on first use, when this app's
  /// state file does not exist but that shared one does (and holds a state), it is copied into
  /// this app's, so the user keeps their votes and queue; the shared file is never changed or
  /// removed. A directory the app gives is used as it is, and nothing is copied into it.
  ///
  /// - Parameters:
  ///   - base: the voter that talks to the server.
  ///   - namespace: the namespace the state belongs to.
  ///   - directory: where the state file goes; nil (the default) for
  ///     ``VoterIdentity/appDirectory``, with the shared state of earlier versions copied there.
  ///   - identity: the identity ``forget()`` removes along with the state.
  public init(
    base: Base, namespace: String, directory: URL? = nil, identity: VoterIdentity? = nil
  ) {
    if let directory {
      self.init(
        base: base, namespace: namespace, identity: identity,
        file: VoteLedger.file(for: namespace, in: directory), carryOver: nil)
    } else {
      self.init(
        base: base, namespace: namespace, applicationSupport: VoterIdentity.applicationSupport,
        app: VoterIdentity.appName(), identity: identity)
    }
  }

  /// The default place under `applicationSupport` for the app named `app` (a directory name,
  /// see ``VoterIdentity/appName(bundleIdentifier:executablePath:)``): the state file in its
  /// ``VoterIdentity/appDirectory``, carrying over the one in ``VoterIdentity/defaultDirectory``.
  init(
    base: Base, namespace: String, applicationSupport: URL, app: String,
    identity: VoterIdentity? = nil
  ) {
    self.init(
      base: base, namespace: namespace, identity: identity,
      file: VoteLedger.file(
        for: namespace, in: VoterIdentity.appDirectory(in: applicationSupport, app: app)),
      carryOver: VoteLedger.file(
        for: namespace, in: VoterIdentity.sharedDirectory(in: applicationSupport)))
  }

  private init(
    base: Base, namespace: String, identity: VoterIdentity?, file: URL, carryOver: URL?
  ) {
    self.base = base
    self.namespace = namespace
    self.identity = identity
    self.ledger = VoteLedger.shared(file: file, namespace: namespace, carryOver: carryOver)
  }

  /// The state file of this namespace.
  public var stateFile: URL { ledger.file }

  // MARK: The Roadmap package's three methods

  /// The count (including this voter's queued vote); 0 on failure and for a finished feature.
  public func fetch(for feature: RoadmapFeature) async -> Int {
    (try? await count(for: feature)) ?? 0
  }

  /// Votes (or queues the vote when offline); the new count, or nil on failure.
  public func vote(for feature: RoadmapFeature) async -> Int? {
    try? await castVote(for: feature)
  }

  /// Unvotes (or queues the unvote when offline); the new count, or nil on failure.
  public func unvote(for feature: RoadmapFeature) async -> Int? {
    try? await withdrawVote(for: feature)
  }

  // MARK: Reads

  /// The server's count plus this voter's queued change; queued votes are sent first. When the
  /// state file cannot be read (damaged), the server's count as it is.
  public func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    if feature.isFinished == true { return 0 }
    await flushIfQueued()
    let raw = try await base.count(for: feature)
    lastKnown.set(feature.id, raw)
    return VoteCount.adjusted(raw, by: (try? ledger.state())?.pendingDelta(feature.id) ?? 0)
  }

  /// A whole board through the base voter's batch read, with queued changes applied. When the
  /// state file cannot be read (damaged), the server's counts as they are.
  public func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    await flushIfQueued()
    let raw = try await base.counts(for: features)
    let state = try? ledger.state()
    let finished = Self.finishedIDs(features)
    var counts: [String: Int] = [:]
    for (id, count) in raw {
      lastKnown.set(id, count)
      counts[id] =
        finished.contains(id) ? 0 : VoteCount.adjusted(count, by: state?.pendingDelta(id) ?? 0)
    }
    return counts
  }

  /// A whole board through the base voter's ``FeatureVoter/countResults(for:)``: each
  /// feature's count with queued changes applied, or its own failure. When the state file
  /// cannot be read (damaged), the server's counts as they are.
  public func countResults(for features: [RoadmapFeature]) async
    -> [String: Result<Int, VotingError>]
  {
    await flushIfQueued()
    let raw = await base.countResults(for: features)
    let state = try? ledger.state()
    let finished = Self.finishedIDs(features)
    var results: [String: Result<Int, VotingError>] = [:]
    for (id, result) in raw {
      guard case .success(let count) = result else {
        results[id] = result
        continue
      }
      lastKnown.set(id, count)
      results[id] = .success(
        finished.contains(id) ? 0 : VoteCount.adjusted(count, by: state?.pendingDelta(id) ?? 0))
    }
    return results
  }

  /// A whole board; features that could not be read are 0.
  public func fetch(for features: [RoadmapFeature]) async -> [String: Int] {
    await flushIfQueued()
    let raw = await base.fetch(for: features)
    let state = try? ledger.state()
    let finished = Self.finishedIDs(features)
    var counts: [String: Int] = [:]
    for (id, count) in raw {
      // A 0 here may be a failed read, which must not replace a count already seen.
      if count != 0 || lastKnown.get(id) == nil { lastKnown.set(id, count) }
      counts[id] =
        finished.contains(id) ? 0 : VoteCount.adjusted(count, by: state?.pendingDelta(id) ?? 0)
    }
    return counts
  }

  /// The ids of the finished features among `features`: they count 0, as ``count(for:)``
  /// says, whatever this voter queued for them before they were finished.
  private static func finishedIDs(_ features: [RoadmapFeature]) -> Set<String> {
    Set(features.lazy.filter { $0.isFinished == true }.map(\.id))
  }

  /// Whether this voter's vote for `feature` stands: accepted by the server, or queued.
  public func hasVoted(for feature: RoadmapFeature) throws(VotingError) -> Bool {
    try ledger.state().hasVoted(feature.id)
  }

  /// The ids of the features this voter's vote stands for, queued votes included, sorted.
  public func votedFeatureIDs() throws(VotingError) -> [String] {
    let state = try ledger.state()
    let ids = Set(state.voted + state.queue.map(\.featureID))
    return ids.filter { state.hasVoted($0) }.sorted()
  }

  /// The offline queue, oldest first.
  public func pendingVotes() throws(VotingError) -> [PendingVote] {
    try ledger.state().queue
  }

  // MARK: Writes

  /// Casts the vote, or queues it when the server cannot be reached, or, where sending it
  /// again changes nothing, gave no answer in time, a 429 or a 5xx, or the calling task was
  /// cancelled while it was being sent (then the answer is the last count seen plus one). A
  /// feature already voted for sends nothing.
  public func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await write(.vote, feature)
  }

  /// Withdraws the vote, or queues the unvote when offline (and where a vote is queued). A
  /// feature not voted for sends nothing; withdrawing a queued vote removes it from the queue.
  public func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await write(.unvote, feature)
  }

  /// Removes this namespace's state file (voted state, queue, refusals) and the voter identity's
  /// file, so the install votes as a new voter from now on. A base voter holding an id of its
  /// own (a ``VoteFirstVoter``'s client) is told to forget it too. In the default place a file
  /// `votes-NS.json.forgotten` stays next to the state file (left before it goes), so the
  /// shared state of earlier versions is never copied again.
  public func forget() async throws(VotingError) {
    try await gate.run { () throws(VotingError) in
      try ledger.remove()
      try identity?.forget()
      lastKnown.clear()
      await (base as? any HoldsVoterID)?.forgetVoterID()
    }
  }
}

extension DurableVoter where Base == CountingAPIVoter {
  /// A durable voter over `base`, for its namespace and identity, keeping state in `directory`
  /// (nil, the default: this app's own, as in ``init(base:namespace:directory:identity:)``).
  public init(base: CountingAPIVoter, directory: URL? = nil) {
    self.init(
      base: base, namespace: base.namespace, directory: directory, identity: base.identity)
  }
}

/// The last count the server answered per feature, for answers to queued votes.
final class CountCache: @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  // lock()/unlock() rather than withLock, which Apple platforms have only since iOS 16.
  func set(_ id: String, _ count: Int) {
    lock.lock()
    counts[id] = count
    lock.unlock()
  }

  func get(_ id: String) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    return counts[id]
  }

  func clear() {
    lock.lock()
    counts = [:]
    lock.unlock()
  }
}
