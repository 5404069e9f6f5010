import Foundation
import RoadmapFormat
import VoteFirstAPI

/// A ``FeatureVoter`` over any `VoteFirstClient`: a Roadmap feature's votes are those of the
/// VoteFirst feature whose external reference (`ref`) is its id.
///
/// Which VoteFirst id a ref has comes from one listing of the board (archived stages
/// included) and is remembered; a ref it does not know, or an id that has gone, lists the
/// board again. A Roadmap feature VoteFirst does not have holds 0 votes, and voting for it is
/// refused (404). A finished feature (`isFinished == true`) makes no call: it counts 0.
/// Failures keep their reason: the ``VotingError`` kinds follow the client's (refused, rate
/// limited, offline, timed out, server error, bad answer, invalid request).
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
    for refreshing in [false, true] {
      guard let id = try await id(for: feature.id, refreshing: refreshing) else { return 0 }
      do {
        return try await client.feature(id: id).votes
      } catch  where error.kind == .notFound && !refreshing {
        continue
      } catch {
        throw Self.votingError(error)
      }
    }
    return 0
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
    for refreshing in [false, true] {
      guard let id = try await id(for: feature.id, refreshing: refreshing) else { break }
      do {
        let state =
          up ? try await client.upvote(featureID: id) : try await client.unvote(featureID: id)
        return state.votes
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

  /// The VoteFirst id of the Roadmap id `ref`: remembered, or (on a miss or when
  /// `refreshing`) from a fresh listing; nil when VoteFirst has no such feature.
  private func id(for ref: String, refreshing: Bool) async throws(VotingError) -> Int? {
    if !refreshing, let id = refs.id(for: ref) { return id }
    return try await listing()[ref]?.id
  }

  /// Every feature of the board (archived stages too) by ref; refreshes the remembered ids.
  private func listing() async throws(VotingError) -> [String: (id: Int, votes: Int)] {
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
      throw Self.votingError(error)
    }
    var listed: [String: (id: Int, votes: Int)] = [:]
    for feature in features {
      guard let ref = feature.ref, listed[ref] == nil else { continue }
      listed[ref] = (feature.id, feature.votes)
    }
    refs.replace(listed.mapValues(\.id))
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
      return .badAnswer(error.message, status: error.status, url: place)
    case .invalidRequest:
      return .invalidRequest(error.message)
    default:
      return .refused(status: error.status ?? 400, reason: reason, url: place)
    }
  }
}

/// The ref → VoteFirst id map of a ``VoteFirstVoter``, shared by its calls.
private final class RefMap: @unchecked Sendable {
  // lock()/unlock(): NSLock's withLock is on Apple platforms only since iOS 16.
  private let lock = NSLock()
  private var ids: [String: Int] = [:]

  func id(for ref: String) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    return ids[ref]
  }

  func replace(_ map: [String: Int]) {
    lock.lock()
    ids = map
    lock.unlock()
  }
}
