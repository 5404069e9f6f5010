import Foundation
import RoadmapFormat

/// A ``FeatureVoter`` that keeps counts and per-voter votes in one JSON file on disk, for apps
/// and tools that keep votes locally (a Mac app's own board, a CI script, a kiosk).
///
///     let voter = FileVoter(file: url, identity: try VoterIdentity(appUserID: "kiosk-1"))
///
/// The file:
///
///     {"version":1,"counts":{"feature1":3},"voters":{"feature1":["alice","bob"]}}
///
/// - With an identity, a vote counts once per voter and an unvote removes only that voter's
///   vote (as `roadmapctl serve` does with `X-Voter-ID`). Without one, every vote counts and an
///   unvote takes back one anonymous vote. Counts never go below zero.
/// - Every change takes an advisory lock (`flock` on `FILE.lock` next to it), reads the file,
///   and replaces it atomically (temporary file, `fsync`, `rename`), so processes voting through
///   the same file at once lose nothing and a crash leaves the old or the new file.
/// - A rewrite keeps the top-level keys this version does not know (a newer version's, or a
///   hand edit's) with their values' text as it was, byte for byte: a key repeated inside an
///   object, numbers such as `-0`, `1E2` or `1e400`, and strings with escapes or a lone
///   surrogate are written back as they were read.
/// - Every voter listed holds one vote: a voter listed twice counts once, and a count below the
///   number of its voters (a hand edit) reads as that number, so no voter's vote is lost.
/// - A file that cannot be read or is not a vote file is a ``VotingError/Kind/storage`` error
///   that names it; it is never reset to zero or overwritten.
/// - A count holds at most 2^53 − 1, as on `roadmapctl serve`: a larger one is a damaged file,
///   and a vote on a count already there is a ``VotingError/Kind/storage`` error naming the
///   file, which changes nothing.
///
/// File work runs on a dispatch queue, off Swift's cooperative threads.
public struct FileVoter: FeatureVoter {
  /// The vote file.
  public let file: URL
  /// How feature ids become keys in the file.
  public let keys: KeyTemplate
  /// The voter; nil counts anonymously.
  public let identity: VoterIdentity?

  /// Creates a voter over `file` (created on the first vote).
  ///
  /// - Parameters:
  ///   - file: the JSON file.
  ///   - keys: the key template; `feature{id}` by default.
  ///   - identity: the voter; nil for anonymous votes.
  public init(file: URL, keys: KeyTemplate = .roadmapDefault, identity: VoterIdentity? = nil) {
    self.file = file
    self.keys = keys
    self.identity = identity
  }

  /// The lock file next to the vote file.
  public var lockFile: URL { FileLock.lockFile(for: file) }

  /// The count; 0 on failure and for a finished feature.
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

  /// The count in the file; 0 for a feature without votes, a finished feature, or no file yet.
  public func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    if feature.isFinished == true { return 0 }
    let key = keys.key(for: feature.id)
    let file = self.file
    return try await offThread {
      FileVoter.capture { () throws(VotingError) in try VoteFile.read(file).counts[key] ?? 0 }
    }
  }

  /// A whole board in one read of the file.
  public func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    let file = self.file
    let content = try await offThread {
      FileVoter.capture { () throws(VotingError) in try VoteFile.read(file) }
    }
    var counts: [String: Int] = [:]
    for feature in features {
      counts[feature.id] =
        feature.isFinished == true ? 0 : content.counts[keys.key(for: feature.id)] ?? 0
    }
    return counts
  }

  /// A whole board; all 0 when the file cannot be read.
  public func fetch(for features: [RoadmapFeature]) async -> [String: Int] {
    if let counts = try? await counts(for: features) { return counts }
    return Dictionary(features.map { ($0.id, 0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Adds this voter's vote (once per voter with an identity) and returns the new count.
  public func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await change(feature, up: true)
  }

  /// Removes this voter's vote (or one anonymous vote) and returns the new count.
  public func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    try await change(feature, up: false)
  }

  private func change(_ feature: RoadmapFeature, up: Bool) async throws(VotingError) -> Int {
    if feature.isFinished == true {
      throw .invalidRequest("'\(feature.id)' is finished: finished features take no votes")
    }
    let key = keys.key(for: feature.id)
    let voter = try identity?.id()
    let (file, lockFile) = (self.file, self.lockFile)
    return try await offThread {
      FileVoter.capture { () throws(VotingError) in
        try FileLock.holding(lockFile) { () throws(VotingError) in
          var content = try VoteFile.read(file)
          let count = try content.apply(key: key, voter: voter, up: up, in: file)
          try StateFile.write(try content.encoded(file), to: file)
          return count
        }
      }
    }
  }

  /// Runs `work` on a dispatch queue. It takes a Result-returning closure rather than a
  /// typed-throws one: escaping typed-throws function types need runtime support that iOS 15
  /// and macOS 12 lack.
  private func offThread<T: Sendable>(
    _ work: @escaping @Sendable () -> Result<T, VotingError>
  ) async throws(VotingError) -> T {
    let result: Result<T, VotingError> = await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(returning: work())
      }
    }
    return try result.get()
  }

  /// `body`'s value or error as a Result.
  private static func capture<T>(_ body: () throws(VotingError) -> T) -> Result<T, VotingError> {
    do throws(VotingError) {
      return .success(try body())
    } catch {
      return .failure(error)
    }
  }
}
