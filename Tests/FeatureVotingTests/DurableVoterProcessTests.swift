import Foundation
import RoadmapFormat
import Testing
import VoteStore

@testable import FeatureVoting

/// `DurableVoter`s of two processes over one state file (an app and its extension in one App
/// Group container): neither overwrites the other's voted marks or queued votes.
@Suite("DurableVoter across processes")
struct DurableVoterProcessTests {
  func voter(_ server: URL, _ directory: URL) -> DurableVoter<CountingAPIVoter> {
    DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: "com.example.app",
        identity: .installation(file: directory.appendingPathComponent("voter-id")),
        readRetry: RetryPolicy(attempts: 1)),
      directory: directory)
  }

  /// The state file's voted ids and queued feature ids, read as JSON.
  func stateFile(_ directory: URL) throws -> (voted: [String], queued: [String]) {
    let file = directory.appendingPathComponent("votes-com.example.app.json")
    let content = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let queue = content["queue"] as? [[String: Any]] ?? []
    return (
      (content["voted"] as? [String] ?? []).sorted(),
      queue.compactMap { $0["featureID"] as? String }.sorted()
    )
  }

  /// Runs two `file-voter-stress durable` processes at once over `directory`, each voting for
  /// `votes` features of its own (`a-0`..., `b-0`...) through `server`; their feature ids.
  static func voteInTwoProcesses(
    _ server: URL, _ directory: URL, votes: Int
  ) async throws -> [String] {
    let helper = try HelperBinary.url("file-voter-stress")
    let arguments = ["a", "b"].map { prefix in
      ["durable", server.absoluteString, directory.path, "com.example.app", prefix, "\(votes)"]
    }
    let (argumentsA, argumentsB) = (arguments[0], arguments[1])
    async let first = HelperBinary.run(helper, argumentsA)
    async let second = HelperBinary.run(helper, argumentsB)
    for (status, out, err) in try await [first, second] {
      #expect(status == 0, "\(err)")
      #expect(out == "cast \(votes)\n")
    }
    return ["a", "b"].flatMap { prefix in (0..<votes).map { "\(prefix)-\($0)" } }
  }

  @Test("two processes voting at once through one state directory: every vote kept")
  func twoProcessesOnline() async throws {
    let directory = try temporaryDirectory()
    let service = try LiveCounter()
    let ids = try await Self.voteInTwoProcesses(service.url, directory, votes: 15)
    #expect(try stateFile(directory).voted == ids.sorted())
    #expect(try voter(service.url, directory).votedFeatureIDs() == ids.sorted())
    let keys = ids.map { "feature\($0)" }
    let stored = try await service.store.values(namespace: "com.example.app", keys: keys)
    #expect(stored == CounterValues(keys.map { ($0, Int64(1)) }))
    await service.stop()
  }

  @Test("two processes queuing offline at once: every queued vote kept, then sent once")
  func twoProcessesOffline() async throws {
    let directory = try temporaryDirectory()
    let closed = try ClosedPort()
    let ids = try await Self.voteInTwoProcesses(closed.url, directory, votes: 12)
    #expect(try stateFile(directory).queued == ids.sorted())

    closed.release()
    let service = try LiveCounter(port: closed.port)
    let report = try await voter(service.url, directory).flush()
    #expect(report.sent.count == ids.count && report.remaining == 0)
    #expect(try stateFile(directory) == (voted: ids.sorted(), queued: []))
    let keys = ids.map { "feature\($0)" }
    let stored = try await service.store.values(namespace: "com.example.app", keys: keys)
    #expect(stored == CounterValues(keys.map { ($0, Int64(1)) }))
    await service.stop()
  }

  @Test("each process sees the other's votes and queue, and sends nothing twice")
  func interleaved() async throws {
    // Two paths to one directory (a symbolic link) are two ledgers in this process, each with
    // its own memory of the file: as two processes are.
    let root = try temporaryDirectory()
    let directory = root.appendingPathComponent("group")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let link = root.appendingPathComponent("link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
    let service = try LiveCounter()
    let app = voter(service.url, directory)
    let widget = voter(service.url, link)
    let (one, two) = (RoadmapFeature(id: "1"), RoadmapFeature(id: "2"))

    #expect(try await app.castVote(for: one) == 1)
    #expect(try await widget.castVote(for: two) == 1)
    #expect(try app.votedFeatureIDs() == ["1", "2"])
    #expect(try widget.votedFeatureIDs() == ["1", "2"])
    // The widget knows the app's vote stands: voting again sends nothing.
    #expect(try await widget.castVote(for: one) == 1)
    #expect(service.targets.filter { $0.hasPrefix("/hit/") }.count == 2)
    #expect(try await widget.withdrawVote(for: one) == 0)
    #expect(try !app.hasVoted(for: one))

    // Offline, each queues a vote; the app's flush sends both, the widget's then sends none.
    let closed = try ClosedPort()
    #expect(try await voter(closed.url, directory).castVote(for: RoadmapFeature(id: "3")) == 1)
    #expect(try await voter(closed.url, link).castVote(for: RoadmapFeature(id: "4")) == 1)
    // The widget's vote for 3, which the app queued already, sends and queues nothing.
    _ = await voter(closed.url, link).vote(for: RoadmapFeature(id: "3"))
    #expect(try app.pendingVotes().map(\.featureID) == ["3", "4"])
    #expect(try widget.pendingVotes().map(\.featureID) == ["3", "4"])
    let sent = try await app.flush()
    #expect(sent.sent.map(\.featureID) == ["3", "4"] && sent.remaining == 0)
    #expect(try await widget.flush() == FlushReport())
    #expect(try widget.votedFeatureIDs() == ["2", "3", "4"])
    let stored = try await service.store.values(
      namespace: "com.example.app", keys: ["feature1", "feature2", "feature3", "feature4"])
    #expect(stored == ["feature1": 0, "feature2": 1, "feature3": 1, "feature4": 1])

    // forget() in one is seen by the other: no votes stand any more.
    try await widget.forget()
    #expect(try app.votedFeatureIDs().isEmpty)
    await service.stop()
  }

  @Test("a vote queued by two processes in the same instant is queued once")
  func enqueueTwice() {
    // Both read the file before either queued: the second enqueue meets the first's vote.
    var state = VoteLedger.State(namespace: "com.example.app")
    state.enqueue(PendingVote(featureID: "7", action: .vote))
    state.enqueue(PendingVote(featureID: "7", action: .vote))
    #expect(state.queue.map(\.featureID) == ["7"])
    // An unvote of a vote that stands is queued once too, and a vote then cancels it.
    state.confirm(.vote, "8")
    state.enqueue(PendingVote(featureID: "8", action: .unvote))
    state.enqueue(PendingVote(featureID: "8", action: .unvote))
    #expect(state.queue.map(\.action) == [.vote, .unvote])
    state.enqueue(PendingVote(featureID: "8", action: .vote))
    #expect(state.queue.map(\.featureID) == ["7"] && state.hasVoted("8"))
  }
}
