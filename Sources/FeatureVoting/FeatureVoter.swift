import Foundation
import RoadmapFormat

/// Something that counts votes for the features of a roadmap.
///
/// The first three methods are those of the Roadmap package's `FeatureVoter`, with the same
/// meanings, so a voter written for that package ports with `import FeatureVoting` for
/// `import Roadmap` and its feature type named ``VotingFeature`` (or `import RoadmapFormat`,
/// where `RoadmapFeature` is declared):
///
/// - ``fetch(for:)`` returns the feature's count, 0 on any failure;
/// - ``vote(for:)`` and ``unvote(for:)`` return the new count, or nil on failure (the Roadmap
///   package then shows the old count plus one).
///
/// A finished feature (`isFinished == true`) makes no network call: `fetch` answers 0 at once.
///
/// The other requirements have default implementations built on those three, so a voter that
/// only has them still conforms:
///
/// - the batch `fetch(for:)` (an array of features) reads a whole board at once (by default, one `fetch`
///   per feature, at most four at a time; ``CountingAPIVoter`` sends one request where the server
///   has a batch route);
/// - ``count(for:)``, ``counts(for:)``, ``castVote(for:)`` and ``withdrawVote(for:)`` say why
///   they failed with a ``VotingError`` (offline, timed out, rate limited, refused, server error,
///   bad answer) instead of answering only 0 or nil. Their defaults cannot know why the plain
///   call failed: `castVote` and `withdrawVote` throw ``VotingError/Kind/unexplained`` for a nil,
///   and `count` cannot tell a 0 from a failure. The voters of this module implement them for
///   real.
/// - ``countResults(for:)`` reads a whole board with each feature's own result; by default,
///   through ``counts(for:)``, reading each feature on its own only when that batch is refused
///   or answered oddly.
public protocol FeatureVoter: Sendable {
  /// The current vote count of `feature`; 0 on any failure and for a finished feature.
  func fetch(for feature: RoadmapFeature) async -> Int

  /// Casts this voter's vote for `feature` and returns the new count, or nil on failure.
  func vote(for feature: RoadmapFeature) async -> Int?

  /// Withdraws this voter's vote for `feature` and returns the new count, or nil on failure.
  func unvote(for feature: RoadmapFeature) async -> Int?

  /// The counts of a whole board, by feature id; a feature whose count could not be read is 0.
  ///
  /// Finished features are 0 without a network call. Duplicate ids are read once.
  func fetch(for features: [RoadmapFeature]) async -> [String: Int]

  /// The current vote count of `feature`, or the reason it could not be read.
  ///
  /// A finished feature is 0 without a network call.
  func count(for feature: RoadmapFeature) async throws(VotingError) -> Int

  /// The counts of a whole board, by feature id, or the reason they could not be read.
  ///
  /// Finished features are 0 without a network call; duplicate ids are read once.
  func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int]

  /// The counts of a whole board, each feature's count or its own failure, by feature id: a
  /// caller can use the counts it has and say which could not be read (a key the server does
  /// not take) instead of giving up on the board. ``CoalescingVoter`` answers each read of a
  /// window from it.
  ///
  /// Finished features are 0 without a network call; duplicate ids are read once.
  func countResults(for features: [RoadmapFeature]) async -> [String: Result<Int, VotingError>]

  /// Casts this voter's vote for `feature` and returns the new count, or says why it failed.
  func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int

  /// Withdraws this voter's vote for `feature` and returns the new count, or says why it failed.
  func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int
}
