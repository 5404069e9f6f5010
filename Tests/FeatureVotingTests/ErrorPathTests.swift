import FeatureVoting
import Foundation
import HTTPServer
import RoadmapFormat
import Testing

/// The remaining error paths: bad server URLs, redirects, self-pointing pages, state
/// directories that cannot be made, newer state files, cancellation while waiting to retry.
@Suite("error paths")
struct ErrorPathTests {
  @Test("a server URL without a host is an invalid request, before any network call")
  func badServer() async throws {
    let voter = CountingAPIVoter(server: URL(fileURLWithPath: "/tmp/votes"), namespace: "ns1")
    let error = await votingError { try await voter.count(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message.contains("file:///tmp/votes") == true)
  }

  @Test(
    "pages whose cursors go round in a circle are a bad answer, not an endless read",
    .timeLimit(.minutes(5)))
  func pagesInACircle() async throws {
    let server = try LocalServer { router in
      router.get("/counts/:ns") { request in
        switch request.query("after") {
        case nil: json(#"{"counts":{"a":1},"next":"a"}"#)
        case "a": json(#"{"counts":{"b":1},"next":"b"}"#)
        default: json(#"{"counts":{"c":1},"next":"a"}"#)
        }
      }
    }
    let voter = CountingAPIVoter(server: server.url, namespace: "ns1", readRetry: .none)
    let circle = await votingError { try await voter.allCounts() }
    #expect(circle?.kind == .badAnswer)
    #expect(circle?.message.contains("the page after 'b' points back to 'a'") == true)
    await server.stop()
  }

  @Test("a redirect without a target, and a batch with a non-number, are bad answers")
  func oddAnswers() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { _ in
        HTTPResponse(status: 302, contentType: "text/plain", text: "moved")
      }
      router.get("/counts/:ns") { request in
        request.query("keys") == nil
          ? json(#"{"counts":{"a":1},"next":"a"}"#) : json(#"{"counts":{"feature1":"3"}}"#)
      }
    }
    let countapi = CountingAPIVoter(server: server.url, namespace: "ns1", dialect: .countapi)
    let redirect = await votingError { try await countapi.count(for: RoadmapFeature(id: "1")) }
    #expect(redirect?.kind == .badAnswer)
    #expect(redirect?.status == 302)
    let ours = CountingAPIVoter(server: server.url, namespace: "ns1", readRetry: .none)
    let batch = await votingError { try await ours.counts(for: features("1")) }
    #expect(batch?.kind == .badAnswer)
    // A server whose next page is the page just read would loop forever: stop and say so.
    let loop = await votingError { try await ours.allCounts() }
    #expect(loop?.kind == .badAnswer)
    #expect(loop?.message.contains("points to itself") == true)
    await server.stop()
  }

  @Test("a state directory that cannot be made: the accepted vote stands, queuing one fails")
  func stateDirectoryBlocked() async throws {
    let blocker = try temporaryDirectory().appendingPathComponent("plain-file")
    try Data("x".utf8).write(to: blocker)
    let service = try LiveCounter()
    let durable = DurableVoter(
      base: CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi),
      namespace: "ns1", directory: blocker.appendingPathComponent("state"))
    // The vote reaches the server, which counted it: that is the answer, though the state
    // cannot be kept on disk, and this process still knows the vote stands.
    #expect(try await durable.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try durable.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try await durable.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(service.targets.filter { $0.hasPrefix("/hit/") }.count == 1)
    // A vote that would have to be queued cannot be: the error says where.
    let offline = DurableVoter(
      base: CountingAPIVoter(server: try ClosedPort().url, namespace: "ns1", dialect: .countapi),
      namespace: "ns1", directory: blocker.appendingPathComponent("state"))
    let error = await votingError { try await offline.castVote(for: RoadmapFeature(id: "2")) }
    #expect(error?.kind == .storage)
    #expect(error?.file?.hasPrefix(blocker.path) == true)
    await service.stop()
  }

  @Test("a state file of a newer version is refused, not overwritten")
  func newerStateFile() async throws {
    let directory = try temporaryDirectory()
    let durable = DurableVoter(
      base: CountingAPIVoter(server: URL(string: "http://127.0.0.1:9")!, namespace: "ns1"),
      namespace: "ns1", directory: directory)
    let newer = #"{"version":2,"namespace":"ns1","voted":[],"queue":[],"refusals":[]}"#
    try Data(newer.utf8).write(to: durable.stateFile)
    let error = #expect(throws: VotingError.self) {
      try durable.hasVoted(for: RoadmapFeature(id: "1"))
    }
    #expect(error?.kind == .storage)
    #expect(error?.message.contains("version 2") == true)
    #expect(try String(contentsOf: durable.stateFile, encoding: .utf8) == newer)
  }

  @Test("a read cancelled while it waits to retry stops and says so")
  func cancelledRetry() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { _ in json(#"{"error":"busy"}"#, status: 503) }
    }
    let patient = CountingAPIVoter(
      server: server.url, namespace: "ns1", dialect: .countapi,
      readRetry: RetryPolicy(attempts: 5, initialDelay: 30, maxDelay: 30))
    let task = Task { await votingError { try await patient.count(for: RoadmapFeature(id: "1")) } }
    // Wait for the first attempt's answer (bounded, so a lost request fails instead of hanging),
    // then cancel during the ≥ 24 s wait before the second attempt.
    for _ in 0..<3_000 where server.targets.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    try #require(!server.targets.isEmpty)
    try await Task.sleep(for: .milliseconds(200))
    task.cancel()
    let error = await task.value
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message.contains("cancelled") == true)
    #expect(server.targets.count == 1)
    await server.stop()
  }

  @Test("a Retry-After too long to convert, under an infinite maxDelay, waits instead of trapping")
  func retryAfterTooLargeToConvert() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { _ in
        json(#"{"error":"slow down"}"#, status: 429, headers: ["Retry-After": "99999999999"])
      }
    }
    let patient = CountingAPIVoter(
      server: server.url, namespace: "ns1", dialect: .countapi,
      readRetry: RetryPolicy(attempts: 2, initialDelay: 1e300, maxDelay: .infinity))
    let task = Task { await votingError { try await patient.count(for: RoadmapFeature(id: "1")) } }
    for _ in 0..<3_000 where server.targets.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    try #require(!server.targets.isEmpty)
    try await Task.sleep(for: .milliseconds(300))
    // Still waiting (a wait read as negative would have retried at once).
    #expect(server.targets.count == 1)
    task.cancel()
    let error = await task.value
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message.contains("cancelled") == true)
    await server.stop()
  }
}
