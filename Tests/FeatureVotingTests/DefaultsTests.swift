import Foundation
import RoadmapFormat
import Testing

@testable import FeatureVoting

/// A voter with only the Roadmap package's three methods, counting in memory: what a custom
/// voter ported from the Roadmap package looks like. It exercises the protocol's defaults.
final class ThreeMethodVoter: FeatureVoter, @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [String: Int]
  private var fetched: [String] = []
  private var inFlight = 0
  private var mostInFlight = 0
  let failing: Set<String>

  init(counts: [String: Int], failing: Set<String> = []) {
    self.counts = counts
    self.failing = failing
  }

  var fetchedIDs: [String] { lock.withLock { fetched } }
  var highestConcurrency: Int { lock.withLock { mostInFlight } }

  func fetch(for feature: RoadmapFeature) async -> Int {
    lock.withLock {
      inFlight += 1
      mostInFlight = max(mostInFlight, inFlight)
    }
    // Give the other calls a chance to start, so overlapping calls really overlap.
    try? await Task.sleep(nanoseconds: 2_000_000)
    return lock.withLock {
      inFlight -= 1
      fetched.append(feature.id)
      return counts[feature.id] ?? 0
    }
  }

  func vote(for feature: RoadmapFeature) async -> Int? {
    if failing.contains(feature.id) { return nil }
    return lock.withLock {
      counts[feature.id, default: 0] += 1
      return counts[feature.id]
    }
  }

  func unvote(for feature: RoadmapFeature) async -> Int? {
    if failing.contains(feature.id) { return nil }
    return lock.withLock {
      counts[feature.id] = max(0, (counts[feature.id] ?? 0) - 1)
      return counts[feature.id]
    }
  }
}

@Suite("FeatureVoter defaults")
struct DefaultsTests {
  let board = [
    RoadmapFeature(id: "1"), RoadmapFeature(id: "2"), RoadmapFeature(id: "1"),
    RoadmapFeature(id: "3", isFinished: true), RoadmapFeature(id: "4", isFinished: false),
  ]

  @Test("a batch read fetches each unfinished id once; finished features are 0 without a call")
  func batchFetch() async throws {
    let voter = ThreeMethodVoter(counts: ["1": 5, "2": 2, "3": 9, "4": 1])
    let counts = await voter.fetch(for: board)
    #expect(counts == ["1": 5, "2": 2, "3": 0, "4": 1])
    #expect(voter.fetchedIDs.sorted() == ["1", "2", "4"])
    #expect(try await voter.counts(for: board) == counts)
  }

  @Test("a batch of 50 features runs with at most four calls at once and reads all of them")
  func batchBounded() async {
    let features = (0..<50).map { RoadmapFeature(id: "f\($0)") }
    let voter = ThreeMethodVoter(
      counts: Dictionary(uniqueKeysWithValues: features.map { ($0.id, 1) }))
    let counts = await voter.fetch(for: features)
    #expect(counts.count == 50)
    #expect(counts.values.allSatisfy { $0 == 1 })
    #expect(voter.fetchedIDs.count == 50)
    #expect(voter.highestConcurrency <= 4)
    #expect(voter.highestConcurrency >= 1)
  }

  @Test("castVote and withdrawVote return counts, and a nil becomes an unexplained error")
  func throwingWrites() async throws {
    let voter = ThreeMethodVoter(counts: ["1": 1], failing: ["bad"])
    #expect(try await voter.castVote(for: RoadmapFeature(id: "1")) == 2)
    #expect(try await voter.withdrawVote(for: RoadmapFeature(id: "1")) == 1)
    await #expect(throws: VotingError.self) {
      try await voter.castVote(for: RoadmapFeature(id: "bad"))
    }
    do {
      _ = try await voter.withdrawVote(for: RoadmapFeature(id: "bad"))
    } catch {
      #expect(error.kind == .unexplained)
      #expect(error.message.contains("'bad'"))
    }
  }

  @Test("errors carry what the failure site knew")
  func errorFields() {
    let limited = VotingError.rateLimited(retryAfter: 30, url: "http://h/x")
    #expect(limited.kind == .rateLimited && limited.retryAfter == 30 && limited.status == 429)
    #expect(limited.description == "rate limited by http://h/x: retry in 30 s")
    let refused = VotingError.refused(status: 403, reason: "no anonymous votes", url: "u")
    #expect(refused.kind == .refused && refused.reason == "no anonymous votes")
    let failed = VotingError.serverError(status: 503, detail: "down", url: "u", retryAfter: 1)
    #expect(failed.kind == .serverError && failed.status == 503 && failed.retryAfter == 1)
    let storage = VotingError.storage(file: "/tmp/votes.json", "not JSON")
    #expect(storage.file == "/tmp/votes.json" && storage.description.hasPrefix("/tmp/votes.json"))
    #expect(VotingError.offline("x") != VotingError.timedOut(after: 1, url: "x"))
  }
}
