import FeatureVoting
import Foundation
import RoadmapFormat
import Testing
import VoteFirstAPI

/// `DurableVoter` over `CountingAPIVoter` and the real counter service: voted state, the
/// offline queue, refusals, durable state files.
@Suite("DurableVoter")
struct DurableVoterTests {
  func voter(
    _ server: URL, directory: URL, namespace: String = "com.example.app",
    dialect: CountingDialect = .roadmapBridge, identity: VoterIdentity? = nil
  ) -> DurableVoter<CountingAPIVoter> {
    DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: namespace, dialect: dialect,
        identity: identity ?? .installation(file: directory.appendingPathComponent("voter-id")),
        readRetry: RetryPolicy(attempts: 1)),
      directory: directory)
  }

  @Test("votes cast with the server down arrive once it is up, in order, exactly once")
  func offlineQueue() async throws {
    let directory = try temporaryDirectory()
    let closed = try ClosedPort()
    let offline = voter(closed.url, directory: directory)
    #expect(try await offline.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await offline.castVote(for: RoadmapFeature(id: "2")) == 1)
    #expect(try await offline.castVote(for: RoadmapFeature(id: "3")) == 1)
    #expect(try await offline.withdrawVote(for: RoadmapFeature(id: "2")) == 0)
    #expect(await offline.vote(for: RoadmapFeature(id: "4")) == 1)
    // Reads as cast; the vote and unvote of 2 cancelled out.
    #expect(try offline.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try !offline.hasVoted(for: RoadmapFeature(id: "2")))
    #expect(try offline.votedFeatureIDs() == ["1", "3", "4"])
    #expect(try offline.pendingVotes().map(\.featureID) == ["1", "3", "4"])
    let stillOffline = try await offline.flush()
    #expect(stillOffline.remaining == 3 && stillOffline.sent.isEmpty)
    #expect(stillOffline.stoppedBy?.kind == .offline)

    // The app restarts (a new voter over the same directory) and the network is back.
    closed.release()
    let service = try LiveCounter(port: closed.port)
    let online = voter(service.url, directory: directory)
    #expect(try online.pendingVotes().count == 3)
    let report = try await online.flush()
    #expect(report.sent.map(\.featureID) == ["1", "3", "4"])
    #expect(report.refused.isEmpty && report.remaining == 0)
    #expect(
      service.targets == [
        "/hit/com.example.app/feature1", "/hit/com.example.app/feature3",
        "/hit/com.example.app/feature4",
      ])
    #expect(try await online.flush() == FlushReport())
    let values = try await service.store.values(
      namespace: "com.example.app", keys: ["feature1", "feature2", "feature3", "feature4"])
    #expect(values == ["feature1": 1, "feature3": 1, "feature4": 1])
    #expect(try online.votedFeatureIDs() == ["1", "3", "4"])
    // Voting again for a feature already voted for sends nothing.
    #expect(try await online.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(!service.targets.dropFirst(3).contains { $0.hasPrefix("/hit/") })
    await service.stop()
  }

  @Test("offline after a restart, a vote already standing answers a count, not a failure")
  func standingVoteOfflineAfterARestart() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let online = voter(service.url, directory: directory)
    #expect(try await online.castVote(for: RoadmapFeature(id: "5")) == 1)
    await service.stop()
    // The app starts again with no network: it has seen no count since.
    let closed = try ClosedPort()
    let restarted = voter(closed.url, directory: directory)
    #expect(try await restarted.castVote(for: RoadmapFeature(id: "5")) == 1)
    #expect(await restarted.vote(for: RoadmapFeature(id: "5")) == 1)
    #expect(try await restarted.withdrawVote(for: RoadmapFeature(id: "6")) == 0)
    #expect(try restarted.pendingVotes().isEmpty)
    closed.release()
  }

  @Test("the next call that reaches the server sends the queue first")
  func implicitFlush() async throws {
    let directory = try temporaryDirectory()
    let closed = try ClosedPort()
    _ = try await voter(closed.url, directory: directory).castVote(for: RoadmapFeature(id: "9"))
    closed.release()
    let service = try LiveCounter(port: closed.port)
    let online = voter(service.url, directory: directory)
    #expect(try await online.count(for: RoadmapFeature(id: "9")) == 1)
    #expect(service.targets == ["/hit/com.example.app/feature9", "/get/com.example.app/feature9"])
    #expect(try online.pendingVotes().isEmpty)
    await service.stop()
  }

  @Test("a queued vote the server refuses is undone, with its reason")
  func refusedQueuedVote() async throws {
    let directory = try temporaryDirectory()
    let closed = try ClosedPort()
    let anonymous = DurableVoter(
      base: CountingAPIVoter(server: closed.url, namespace: "ns1", dialect: .countapi),
      namespace: "ns1", directory: directory)
    _ = try await anonymous.castVote(for: RoadmapFeature(id: "1"))
    #expect(try anonymous.hasVoted(for: RoadmapFeature(id: "1")))
    closed.release()
    let service = try LiveCounter(port: closed.port) { $0.requireVoter = true }
    let report = try await anonymous.flush()
    #expect(report.sent.isEmpty && report.remaining == 0)
    #expect(report.refused.count == 1)
    #expect(report.refused.first?.vote.featureID == "1")
    #expect(report.refused.first?.error.kind == .refused)
    #expect(report.refused.first?.error.reason?.contains("refuses anonymous votes") == true)
    #expect(try !anonymous.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try await service.store.values(namespace: "ns1", keys: ["feature1"]).isEmpty)
    await service.stop()
  }

  @Test("a refusal met by an implicit flush is kept until the app takes it")
  func keptRefusal() async throws {
    let directory = try temporaryDirectory()
    let closed = try ClosedPort()
    let anonymous = DurableVoter(
      base: CountingAPIVoter(server: closed.url, namespace: "ns1", dialect: .countapi),
      namespace: "ns1", directory: directory)
    _ = try await anonymous.castVote(for: RoadmapFeature(id: "1"))
    closed.release()
    let service = try LiveCounter(port: closed.port) { $0.requireVoter = true }
    #expect(await anonymous.fetch(for: RoadmapFeature(id: "1")) == 0)
    let refusals = try anonymous.takeRefusals()
    #expect(refusals.map(\.vote.featureID) == ["1"])
    #expect(refusals.first?.error.reason?.contains("refuses anonymous votes") == true)
    #expect(try anonymous.takeRefusals().isEmpty)
    await service.stop()
  }

  @Test("voted state is marked only when the server accepts, and kept per namespace")
  func votedState() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter { $0.requireVoter = true }
    let refusedVoter = DurableVoter(
      base: CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi),
      namespace: "ns1", directory: directory)
    let error = await votingError { try await refusedVoter.castVote(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .refused)
    #expect(try !refusedVoter.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try refusedVoter.pendingVotes().isEmpty)

    let one = voter(service.url, directory: directory, namespace: "app.one")
    let two = voter(service.url, directory: directory, namespace: "app.two")
    #expect(try await one.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try one.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try !two.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try await two.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await one.withdrawVote(for: RoadmapFeature(id: "1")) == 0)
    #expect(try !one.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try two.hasVoted(for: RoadmapFeature(id: "1")))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(
      files == [
        "voter-id", "votes-app.one.json", "votes-app.one.json.lock", "votes-app.two.json",
        "votes-app.two.json.lock",
      ])
    await service.stop()
  }

  @Test("one vote per install even on an anonymous counter")
  func oncePerInstall() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let anonymous = DurableVoter(
      base: CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi),
      namespace: "ns1", directory: directory)
    #expect(try await anonymous.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await anonymous.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await anonymous.withdrawVote(for: RoadmapFeature(id: "2")) == 0)
    #expect(service.targets.filter { !$0.hasPrefix("/get/") } == ["/hit/ns1/feature1"])
    await service.stop()
  }

  @Test("a damaged state file is an error naming it, and nothing overwrites it")
  func damagedState() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let durable = voter(service.url, directory: directory)
    try Data("{\"version\":1,\"voted\":".utf8).write(to: durable.stateFile)
    let error = await votingError { try await durable.castVote(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .storage)
    #expect(error?.file == durable.stateFile.path)
    #expect(await durable.vote(for: RoadmapFeature(id: "1")) == nil)
    #expect(try Data(contentsOf: durable.stateFile) == Data("{\"version\":1,\"voted\":".utf8))
    #expect(service.targets.filter { $0.hasPrefix("/hit/") }.isEmpty)
    await service.stop()
  }

  /// The message says what is wrong with the file, and a file of another version is said to
  /// be one whatever else it holds (it printed Swift's DecodingError, and checked the
  /// version only after the rest had decoded).
  @Test(
    "a damaged state file's error says what is wrong with it",
    arguments: [
      (#"{"version":1,"voted":"#, "is not a voting state file (it is not JSON)"),
      (#"{"version":2}"#, "has version 2; this library reads version 1"),
      (#"{"version":2,"voted":7}"#, "has version 2; this library reads version 1"),
      (
        #"{"version":1,"namespace":"com.example.app","voted":[1]}"#,
        "is not a voting state file (voted.0 is not a string)"
      ),
      (
        #"{"version":1,"voted":[]}"#,
        #"is not a voting state file (no "namespace" at the top level)"#
      ),
    ])
  func damagedStateIsNamed(_ text: String, _ message: String) async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let durable = voter(service.url, directory: directory)
    try Data(text.utf8).write(to: durable.stateFile)
    let error = await votingError { try await durable.castVote(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .storage)
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    #expect(error?.message.contains("DecodingError") == false)
    #expect(try Data(contentsOf: durable.stateFile) == Data(text.utf8))
    await service.stop()
  }

  @Test("state files are replaced whole: no temporary files are left behind")
  func atomicFiles() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let durable = voter(service.url, directory: directory)
    for id in 0..<20 { _ = try await durable.castVote(for: RoadmapFeature(id: "\(id)")) }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(files == ["voter-id", "votes-com.example.app.json", "votes-com.example.app.json.lock"])
    let saved =
      try JSONSerialization.jsonObject(with: Data(contentsOf: durable.stateFile)) as? [String: Any]
    #expect((saved?["voted"] as? [String])?.count == 20)
    await service.stop()
  }

  @Test("forget() removes the voted state and the voter id")
  func forget() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let durable = voter(service.url, directory: directory)
    #expect(try await durable.castVote(for: RoadmapFeature(id: "1")) == 1)
    let firstID = try #require(service.requests.last?.headers["X-Voter-ID"])
    try await durable.forget()
    // Only the empty lock file stays (removing it could let two processes lock two files).
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(left == ["votes-com.example.app.json.lock"])
    if let lock = left.first {
      #expect(try Data(contentsOf: directory.appendingPathComponent(lock)).isEmpty)
    }
    #expect(try !durable.hasVoted(for: RoadmapFeature(id: "1")))
    // A new voter now: its vote counts too.
    #expect(try await durable.castVote(for: RoadmapFeature(id: "1")) == 2)
    #expect(service.requests.last?.headers["X-Voter-ID"] != firstID)
    await service.stop()
  }

  /// A VoteFirstVoter's client holds the voter id it was made with (from the identity's
  /// file): forget() removed the file and the state, and the client went on voting as the
  /// voter the user had asked to forget, until the app was launched again.
  @Test("forget() over a VoteFirstVoter has its client vote as a new voter")
  func forgetOverVoteFirst() async throws {
    let directory = try temporaryDirectory()
    let identity = VoterIdentity.installation(file: directory.appendingPathComponent("voter-id"))
    let client = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: URL(string: "http://127.0.0.1:9")!, project: "demo-app"),
      voterID: try identity.id())
    let forgotten = client.voterID
    let durable = DurableVoter(
      base: CoalescingVoter(base: VoteFirstVoter(client: client)), namespace: "demo-app",
      directory: directory, identity: identity)
    try await durable.forget()
    #expect(client.voterID != forgotten)
    #expect(try identity.id() != forgotten)
  }
}
