import FeatureVoting
import Foundation
import RoadmapFormat
import Testing

/// `CoalescingVoter`: the Roadmap package's one-fetch-per-row reads become one batch request.
@Suite("CoalescingVoter")
struct CoalescingVoterTests {
  @Test("reads made together are one request; each caller gets its own count")
  func coalesces() async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    _ = try await writer.castVote(for: RoadmapFeature(id: "3"))
    _ = try await writer.castVote(for: RoadmapFeature(id: "3"))
    _ = try await writer.castVote(for: RoadmapFeature(id: "5"))
    let before = service.requests.count
    let voter = CoalescingVoter(
      base: CountingAPIVoter(server: service.url, namespace: "ns1"), window: 0.2)
    let counts = await withTaskGroup(of: (String, Int).self) { group in
      for id in (0..<30).map(String.init) + ["3"] {
        group.addTask { (id, await voter.fetch(for: RoadmapFeature(id: id))) }
      }
      var counts: [String: [Int]] = [:]
      for await (id, count) in group { counts[id, default: []].append(count) }
      return counts
    }
    #expect(counts["3"] == [2, 2])
    #expect(counts["5"] == [1])
    #expect(counts["0"] == [0])
    #expect(counts.count == 30)
    let reads = service.targets[before...]
    // Scheduling may split the burst, but never into one request per row.
    #expect(reads.count < 5)
    #expect(reads.allSatisfy { $0.hasPrefix("/counts/ns1?keys=") })
    await service.stop()
  }

  @Test("a failed batch fails each waiting read; writes pass through")
  func failures() async throws {
    let closed = try ClosedPort()
    let voter = CoalescingVoter(
      base: CountingAPIVoter(
        server: closed.url, namespace: "ns1", readRetry: RetryPolicy(attempts: 1)))
    let error = await votingError { try await voter.count(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .offline)
    #expect(await voter.fetch(for: RoadmapFeature(id: "1")) == 0)
    #expect(await voter.vote(for: RoadmapFeature(id: "1")) == nil)
    #expect(try await voter.count(for: RoadmapFeature(id: "1", isFinished: true)) == 0)
  }
}
