import FeatureVoting
import Foundation
import RoadmapFormat
import Testing

/// `GET /counts/:ns` without `keys` (every counter of a namespace, paged) on the real service,
/// and `CountingAPIVoter.allCounts()` following its pages.
@Suite("all counts of a namespace")
struct AllCountsTests {
  @Test("pages of at most maxBatchKeys, in key order, with a next cursor")
  func pages() async throws {
    let service = try LiveCounter { $0.maxBatchKeys = 3 }
    let writer = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    for id in ["e", "a", "d", "b", "c", "b"] {
      _ = try await writer.castVote(for: RoadmapFeature(id: id))
    }
    _ = try await CountingAPIVoter(server: service.url, namespace: "other", dialect: .countapi)
      .castVote(for: RoadmapFeature(id: "z"))
    let transport = URLSessionTransport()
    func get(_ target: String) async throws -> (Int, String) {
      let response = try await transport.send(
        TransportRequest(url: URL(string: service.url.absoluteString + target)!))
      return (response.status, String(decoding: response.body, as: UTF8.self))
    }
    #expect(
      try await get("/counts/ns1") == (
        200, #"{"counts":{"featurea":1,"featureb":2,"featurec":1},"next":"featurec"}"#
      ))
    #expect(
      try await get("/counts/ns1?after=featurec") == (
        200, #"{"counts":{"featured":1,"featuree":1},"next":null}"#
      ))
    #expect(
      try await get("/counts/ns1?limit=1&after=featurea") == (
        200, #"{"counts":{"featureb":2},"next":"featureb"}"#
      ))
    #expect(try await get("/counts/empty") == (200, #"{"counts":{},"next":null}"#))
    #expect(try await get("/counts/ns1?limit=4").0 == 400)
    #expect(try await get("/counts/ns1?limit=0").0 == 400)
    #expect(try await get("/counts/ns1?after=no%20way").0 == 400)
    let all = try await CountingAPIVoter(server: service.url, namespace: "ns1").allCounts()
    #expect(all == ["featurea": 1, "featureb": 2, "featurec": 1, "featured": 1, "featuree": 1])
    let error = await votingError {
      try await CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
        .allCounts()
    }
    #expect(error?.kind == .invalidRequest)
    await service.stop()
  }

  @Test("a namespace that fits in one page, and an empty one, are read whole")
  func onePage() async throws {
    let service = try LiveCounter()
    let voter = CountingAPIVoter(server: service.url, namespace: "ns1")
    // The first page's `next` is null, as is the cursor before it: that is the end, not a loop.
    #expect(try await voter.allCounts() == [:])
    for id in ["1", "2", "2"] { _ = try await voter.castVote(for: RoadmapFeature(id: id)) }
    #expect(try await voter.allCounts() == ["feature1": 1, "feature2": 2])
    await service.stop()
  }
}
