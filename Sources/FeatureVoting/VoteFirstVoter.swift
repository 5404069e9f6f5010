import Foundation
import RoadmapFormat
import VoteFirstAPI

/// A ``FeatureVoter`` over any `VoteFirstClient`: a Roadmap feature's votes are those of the
/// VoteFirst feature whose external reference (`ref`) is its id.
///
/// Which VoteFirst id a ref has comes from one listing of the board (archived stages
/// included) and is remembered; calls that need one at the same time (a board's rows loading
/// at once) share one listing, and take their counts from it. A remembered id is checked
/// against the feature's ref before it is counted or voted on, so a ref the owner changed
/// since, or an id that has gone, lists the board again instead of counting another feature.
/// A Roadmap feature VoteFirst does not have holds 0 votes, and voting for it is refused
/// (404). A finished feature (`isFinished == true`) makes no call: it counts 0, and voting for
/// it is refused as every voter refuses it. Failures keep their reason: the ``VotingError``
/// kinds follow the client's (refused, rate limited, offline, timed out, server error, bad
/// answer, invalid request). A negative count from the client reads as 0.
public final class VoteFirstVoter: FeatureVoter {
  /// The client calls go through.
  public let client: any VoteFirstClient
  /// The board features are looked up on; nil means every public board.
  public let board: String?
  private let refs = RefMap()

  /// Creates a voter over `client`, looking features up on `board` (every public board when
  /// nil).
  public init(client: any VoteFirstClient, board: String? = nil) {
    self.client = client
    self.board = board
  }

  // MARK: FeatureVoter

  /// The count, 0 on any failure and for a finished feature.
  public func fetch(for feature: RoadmapFeature) async -> Int {
    (try? await count(for: feature)) ?? 0
  }

  /// Casts this voter's vote; the new count, or nil on failure.
  public func vote(for feature: RoadmapFeature) async -> Int? {
    try? await castVote(for: feature)
  }

  /// Withdraws this voter's vote; the new count, or nil on failure.
  public func unvote(for feature: RoadmapFeature) async -> Int? {
    try? await withdrawVote(for: feature)
  }

  /// The counts of a whole board from one listing; 0 for what could not be read.
  public func fetch(for features: [RoadmapFeature]) async -> [String: Int] {
    if let counts = try? await counts(for: features) { return counts }
    return Dictionary(features.map { ($0.id, 0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The count of the VoteFirst feature with this ref (0 when there is none, or finished).
  public func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    if feature.isFinished == true { return 0 }
    if let id = refs.id(for: feature.id) {
      // Remembered: read it, and trust it only while it still has this ref.
      do {
        let read = try await client.feature(id: id)
        if read.ref == feature.id { return max(0, read.votes) }
      } catch  where error.kind == .notFound {
        // Gone: listed again below.
      } catch {
        throw Self.votingError(error)
      }
    }
    return try await listing()[feature.id]?.votes ?? 0
  }

  /// The counts of `features` by Roadmap id, from one listing of the board.
  public func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    let listed = try await listing()
    var counts: [String: Int] = [:]
    for feature in features where counts[feature.id] == nil {
      counts[feature.id] = feature.isFinished == true ? 0 : listed[feature.id]?.votes ?? 0
    }
    return counts
  }

  /// Casts this voter's vote and returns the new count.
  public func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await change(feature, up: true)
  }

  /// Withdraws this voter's vote and returns the new count.
  public func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await change(feature, up: false)
  }

  // MARK: Lookup

  private func change(_ feature: RoadmapFeature, up: Bool) async throws(VotingError) -> Int {
    if feature.isFinished == true { throw .finished(feature.id) }
    for refreshing in [false, true] {
      guard let id = try await id(for: feature.id, refreshing: refreshing) else { break }
      do {
        let state =
          up ? try await client.upvote(featureID: id) : try await client.unvote(featureID: id)
        return max(0, state.votes)
      } catch  where error.kind == .notFound && !refreshing {
        continue
      } catch {
        throw Self.votingError(error)
      }
    }
    throw VotingError.refused(
      status: 404, reason: "no VoteFirst feature has the ref \(feature.id)",
      url: "VoteFirst board \(board ?? "(every public board)")")
  }

  /// The VoteFirst id of the Roadmap id `ref`, nil when VoteFirst has no such feature: a
  /// remembered one while the feature still has that ref (a vote must not land on a feature
  /// the owner gave the id's ref away from), else from a fresh listing.
  private func id(for ref: String, refreshing: Bool) async throws(VotingError) -> Int? {
    if !refreshing, let id = refs.id(for: ref) {
      do {
        if try await client.feature(id: id).ref == ref { return id }
      } catch  where error.kind == .notFound {
        // Gone: listed again below.
      } catch {
        throw Self.votingError(error)
      }
    }
    return try await listing()[ref]?.id
  }

  /// Every feature of the board (archived stages too) by ref, from a listing that calls
  /// needing one at the same time share; refreshes the remembered ids.
  private func listing() async throws(VotingError) -> [String: Listed] {
    let result = await refs.sharedListing { [client, board] () async -> RefMap.Outcome in
      do throws(VotingError) {
        return .success(try await Self.list(client: client, board: board))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Lists the board: its features, then those of its archived stages.
  private static func list(client: any VoteFirstClient, board: String?)
    async throws(VotingError) -> [String: Listed]
  {
    var features: [Feature]
    do {
      // Newest first: an order votes do not change, so votes cast while the pages are read
      // move no feature past the cursor (in `.top` order they did, and it was missed).
      features = try await client.allFeatures(FeatureQuery(board: board, order: .newest))
      let snapshot = try await client.board(slug: board)
      for stage in snapshot.stages where stage.isArchived {
        features += try await client.allFeatures(
          FeatureQuery(board: board, stage: stage.id, order: .newest))
      }
    } catch {
      throw votingError(error)
    }
    var listed: [String: Listed] = [:]
    for feature in features {
      guard let ref = feature.ref, listed[ref] == nil else { continue }
      // A count shown to a user is never negative, whatever the server says (as
      // CountingAPIVoter reads it).
      listed[ref] = Listed(id: feature.id, votes: max(0, feature.votes))
    }
    return listed
  }

  /// The ``VotingError`` for a client failure, keeping its kind and reason.
  static func votingError(_ error: VoteFirstError) -> VotingError {
    let place = "VoteFirst"
    let reason = error.reason.map { "\($0.code): \($0.message)" } ?? error.message
    switch error.kind {
    case .rateLimited:
      return .rateLimited(retryAfter: error.retryAfter.map(TimeInterval.init), url: place)
    case .offline:
      return .offline(error.message)
    case .timedOut:
      return .timedOut(error.message)
    case .serverFailure:
      return .serverError(
        status: error.status ?? 500, detail: reason, url: place,
        retryAfter: error.retryAfter.map(TimeInterval.init))
    case .badAnswer:
      // The client's message already names the URL ("unexpected answer from URL to vote
      // (HTTP 200): DETAIL"): said once, not after "unexpected answer from VoteFirst: ".
      return .badAnswer(message: error.message, status: error.status, orFrom: place)
    case .invalidRequest:
      return .invalidRequest(error.message)
    default:
      return .refused(status: error.status ?? 400, reason: reason, url: place)
    }
  }
}

/// A listed feature: its VoteFirst id and count.
struct Listed: Sendable {
  var id: Int
  var votes: Int
}

/// The ref → VoteFirst id map of a ``VoteFirstVoter``, shared by its calls, and the listing
/// in flight that calls needing one at the same time wait for.
final class RefMap: @unchecked Sendable {
  typealias Outcome = Result<[String: Listed], VotingError>

  // lock()/unlock(): NSLock's withLock is on Apple platforms only since iOS 16.
  private let lock = NSLock()
  private var ids: [String: Int] = [:]
  private var inFlight: Task<Outcome, Never>?

  func id(for ref: String) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    return ids[ref]
  }

  /// The outcome of the listing in flight, or of a new one `list` makes; a listing that
  /// succeeds replaces the remembered ids. The listing is not cancelled with a caller.
  func sharedListing(_ list: @escaping @Sendable () async -> Outcome) async -> Outcome {
    await listingTask(list).value
  }

  /// The listing in flight, or a new one.
  private func listingTask(_ list: @escaping @Sendable () async -> Outcome) -> Task<
    Outcome, Never
  > {
    lock.lock()
    defer { lock.unlock() }
    if let running = inFlight { return running }
    let task = Task { [self] in
      let outcome = await list()
      finish(outcome)
      return outcome
    }
    inFlight = task
    return task
  }

  private func finish(_ outcome: Outcome) {
    lock.lock()
    if case .success(let listed) = outcome { ids = listed.mapValues(\.id) }
    inFlight = nil
    lock.unlock()
  }
}
