import FeatureVoting
import Foundation
import HTTPServer
import RoadmapFormat
import Testing

/// `DurableVoter` when things go wrong between the queue, the server and the disk: failures that
/// are not refusals, cancelled flushes, state files that cannot be written or read, several
/// voters over one state file.
@Suite("DurableVoter failures")
struct DurableVoterFailureTests {
  /// An anonymous countapi voter for `ns1` (every vote is sent once, never retried).
  func anonymous(_ server: URL, _ directory: URL) -> DurableVoter<CountingAPIVoter> {
    DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: "ns1", dialect: .countapi, readRetry: RetryPolicy(attempts: 1)),
      namespace: "ns1", directory: directory)
  }

  /// A `roadmapctl serve` voter for `ns1` with the voter id `alice`.
  func identified(_ server: URL, _ directory: URL) throws -> DurableVoter<CountingAPIVoter> {
    DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: "ns1", identity: try VoterIdentity(appUserID: "alice"),
        readRetry: RetryPolicy(attempts: 1)),
      directory: directory)
  }

  /// Queues a vote for feature `id` in `directory` with the server unreachable.
  func queueOffline(_ id: String, in directory: URL) async throws {
    let closed = try ClosedPort()
    #expect(try await anonymous(closed.url, directory).castVote(for: RoadmapFeature(id: id)) == 1)
  }

  /// `ns1`'s counts in `service`'s store.
  func stored(_ service: LiveCounter, _ keys: String...) async throws -> [String: Int64] {
    try await service.store.values(namespace: "ns1", keys: keys)
  }

  // MARK: 4. Several voters over one state file

  @Test("two voters over one state file in one process lose none of each other's votes")
  func twoVotersOneFile() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let one = try identified(service.url, directory)
    let two = try identified(service.url, directory)
    // Both have read the (empty) state before either votes.
    #expect(try !one.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try !two.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try await one.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await two.castVote(for: RoadmapFeature(id: "2")) == 1)
    #expect(try two.hasVoted(for: RoadmapFeature(id: "1")))
    // Many at once, alternating voters (a voter made in every SwiftUI `body`).
    try await withThrowingTaskGroup(of: Int.self) { group in
      for id in 3..<13 {
        let fresh = try identified(service.url, directory)
        let voter = id.isMultiple(of: 2) ? one : fresh
        group.addTask { try await voter.castVote(for: RoadmapFeature(id: "\(id)")) }
      }
      for try await count in group { #expect(count == 1) }
    }
    let saved =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: one.stateFile)) as? [String: Any]
    #expect((saved?["voted"] as? [String])?.count == 12)
    #expect(try one.votedFeatureIDs().count == 12)
    // Voting again through the other voter sends nothing.
    #expect(try await two.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(service.targets.filter { $0.hasPrefix("/hit/") }.count == 12)
    await service.stop()
  }
}
