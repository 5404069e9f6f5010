import Foundation
import RoadmapFormat

/// A ``FeatureVoter`` over a counting API: countapi.xyz and its clones, counterapi.dev v1,
/// tally-style servers, or `roadmapctl serve` (``CountingDialect``).
///
///     let voter = CountingAPIVoter(
///       server: URL(string: "https://votes.example.com")!, namespace: "com.example.app",
///       dialect: .roadmapBridge, identity: VoterIdentity.installation())
///
/// What it does that the Roadmap package's default voter does not:
///
/// - percent-encodes the namespace and key (``KeyTemplate``, `feature{id}` by default), so an id
///   with a space or a slash works;
/// - checks the HTTP status and the body: a 404 page or an HTML error is an error, not a count;
///   a negative count (a counter an unvote took below zero on some servers) reads as 0, as
///   ``DurableVoter`` shows it;
/// - puts a timeout on every request (``timeout``);
/// - retries reads with backoff (``readRetry``), and writes only where they are idempotent:
///   ``CountingDialect/roadmapBridge`` with a voter id, where a repeated vote changes nothing;
/// - sends the voter id (``VoterIdentity``) as `X-Voter-ID`, so our server counts one vote per
///   voter and an unvote removes only that voter's vote;
/// - reads a whole board in one request where the server has a batch route
///   (`GET /counts/NS?keys=…`, in chunks that fit a request line), else one request per feature
///   with at most ``maxConcurrentReads`` in flight.
///
/// It keeps no state of its own: wrap it in a ``DurableVoter`` for the per-namespace voted state
/// and the offline queue.
public struct CountingAPIVoter: FeatureVoter {
  /// The server's base URL; routes are appended to its path.
  public let server: URL
  /// The namespace (countapi's namespace, counterapi's namespace name).
  public let namespace: String
  /// The wire protocol.
  public let dialect: CountingDialect
  /// How feature ids become keys.
  public let keys: KeyTemplate
  /// Who votes, sent as `X-Voter-ID`; nil votes anonymously.
  public let identity: VoterIdentity?
  /// Seconds to wait for each whole answer.
  public let timeout: TimeInterval
  /// Retries for reads (and for writes where they are idempotent).
  public let readRetry: RetryPolicy
  /// The most single-feature reads in flight during a batch read without a batch route.
  public let maxConcurrentReads: Int
  /// The most keys in one batch request (our server allows 500).
  public let maxBatchKeys: Int
  /// How requests are sent.
  public let transport: any HTTPTransport

  /// Creates a voter.
  ///
  /// - Parameters:
  ///   - server: the base URL, such as `https://votes.example.com` or `https://host/counter/`.
  ///   - namespace: the namespace; the Roadmap package uses the app's bundle identifier.
  ///   - dialect: the server's protocol; ``CountingDialect/roadmapBridge`` by default.
  ///   - keys: the key template; `feature{id}` by default.
  ///   - identity: the voter, sent as `X-Voter-ID`; nil for anonymous votes.
  ///   - timeout: seconds per request, 10 by default.
  ///   - readRetry: the retry policy for reads; 3 attempts by default.
  ///   - maxConcurrentReads: reads in flight at once for a board without a batch route; 6.
  ///   - maxBatchKeys: keys per batch request; 500.
  ///   - transport: how requests are sent; `URLSessionTransport()` by default.
  public init(
    server: URL, namespace: String, dialect: CountingDialect = .roadmapBridge,
    keys: KeyTemplate = .roadmapDefault, identity: VoterIdentity? = nil,
    timeout: TimeInterval = 10, readRetry: RetryPolicy = RetryPolicy(),
    maxConcurrentReads: Int = 6, maxBatchKeys: Int = 500,
    transport: any HTTPTransport = URLSessionTransport()
  ) {
    self.server = server
    self.namespace = namespace
    self.dialect = dialect
    self.keys = keys
    self.identity = identity
    self.timeout = timeout
    self.readRetry = readRetry
    self.maxConcurrentReads = max(1, maxConcurrentReads)
    self.maxBatchKeys = max(1, maxBatchKeys)
    self.transport = transport
  }

  // MARK: The Roadmap package's three methods

  /// The count, 0 on any failure and for a finished feature (no request).
  public func fetch(for feature: RoadmapFeature) async -> Int {
    (try? await count(for: feature)) ?? 0
  }

  /// Votes; the new count, or nil on failure.
  public func vote(for feature: RoadmapFeature) async -> Int? {
    try? await castVote(for: feature)
  }

  /// Unvotes; the new count, or nil on failure.
  public func unvote(for feature: RoadmapFeature) async -> Int? {
    try? await withdrawVote(for: feature)
  }

  // MARK: Reads and writes that say why they failed

  /// The count of `feature`, retried per ``readRetry``; a finished feature is 0 without a
  /// request. A key the server does not know is 0.
  public func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    if feature.isFinished == true { return 0 }
    return try await perform(.read, id: feature.id)
  }

  /// Casts the vote; retried only where writes are idempotent.
  public func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try refuseFinished(feature)
    return try await perform(.vote, id: feature.id)
  }

  /// Withdraws the vote; retried only where writes are idempotent. An unvote of a key the
  /// server does not know is 0.
  public func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try refuseFinished(feature)
    return try await perform(.unvote, id: feature.id)
  }

  /// A whole board: one request per ``maxBatchKeys`` keys on a server with a batch route, else
  /// one per feature, at most ``maxConcurrentReads`` at once. The first failure is thrown.
  ///
  /// A key the batch route cannot take (one that breaks `roadmapctl serve`'s name rule
  /// `^[A-Za-z0-9_\-.]{3,64}$`, such as `featuredark mode`) is read on its own, and a batch the
  /// server refuses or answers oddly is read again one feature at a time, so the error thrown
  /// is that feature's own.
  public func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    let distinct = features.distinctByID
    return try BoundedConcurrency.collect(await readEach(distinct), order: distinct)
  }

  /// A whole board as ``counts(for:)`` reads it, each feature's count or its own failure by
  /// id: a caller can show the counts it has and say which could not be read (a key the
  /// server refuses) instead of giving up on the board.
  public func countResults(for features: [RoadmapFeature]) async
    -> [String: Result<Int, VotingError>]
  {
    await readEach(features.distinctByID)
  }

  /// A whole board as ``counts(for:)`` reads it; each feature that could not be read is 0.
  ///
  /// A key the batch route cannot take is read on its own, and a batch request the server
  /// refuses or answers oddly (one id it does not accept makes it refuse the whole batch) falls
  /// back to one request per feature of that batch, so the other rows still get their counts.
  /// A batch that fails for want of a server (offline, timed out, 429, 5xx) does not: every row
  /// not read yet is 0 at once, instead of one more failing request per row.
  public func fetch(for features: [RoadmapFeature]) async -> [String: Int] {
    await readEach(features.distinctByID).mapValues { (try? $0.get()) ?? 0 }
  }

  /// Each feature's count or its own failure: batches where the dialect has a batch route (see
  /// ``fetch(for:)-([RoadmapFeature])`` for what falls back to single reads), else one read per
  /// feature, at most ``maxConcurrentReads`` at once.
  func readEach(_ distinct: [RoadmapFeature]) async -> [String: Result<Int, VotingError>] {
    guard dialect.hasBatchRoute else { return await readSingly(distinct) }
    return await batchReadEach(distinct)
  }

  /// One read per feature, at most ``maxConcurrentReads`` at once.
  func readSingly(_ features: [RoadmapFeature]) async -> [String: Result<Int, VotingError>] {
    await BoundedConcurrency.map(features, limit: maxConcurrentReads) { feature in
      do throws(VotingError) {
        return .success(try await self.count(for: feature))
      } catch {
        return .failure(error)
      }
    }
  }

  private func refuseFinished(_ feature: RoadmapFeature) throws(VotingError) {
    if feature.isFinished == true {
      throw .finished(feature.id)
    }
  }
}
