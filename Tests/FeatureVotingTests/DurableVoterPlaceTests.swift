import Foundation
import RoadmapFormat
import Testing

@testable import FeatureVoting

/// Where `DurableVoter` keeps its state by default. It kept `votes-NS.json` in
/// `Application Support/RoadmapBridge`, which every non-sandboxed macOS app and Linux tool of a
/// user shared: two apps using one namespace on two servers shared one state, so one showed the
/// other's votes as cast (and sent none for them) and sent the other's offline queue to its own
/// server. Each app now keeps it in its own directory; the shared state is copied there on first
/// use and left as it is. Every test gives the Application Support directory, a temporary one:
/// none touches the real one.
@Suite("DurableVoter's place")
struct DurableVoterPlaceTests {
  /// The voter of the app named `app` under `support`, over `server`, with the app's own id.
  func voter(_ server: URL, support: URL, app: String, namespace: String = "roadmap")
    -> DurableVoter<CountingAPIVoter>
  {
    let identity = VoterIdentity.installation(applicationSupport: support, app: app)
    return DurableVoter(
      base: CountingAPIVoter(
        server: server, namespace: namespace, identity: identity,
        readRetry: RetryPolicy(attempts: 1)),
      namespace: namespace, applicationSupport: support, app: app, identity: identity)
  }

  /// `RoadmapBridge/votes-roadmap.json` under `support`, as earlier versions wrote it.
  func writeSharedState(_ text: String, in support: URL) throws -> URL {
    let shared = support.appendingPathComponent("RoadmapBridge/votes-roadmap.json")
    try FileManager.default.createDirectory(
      at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: shared)
    return shared
  }

  let sharedState = """
    {"version":1,"namespace":"roadmap","voted":["1"],\
    "queue":[{"featureID":"2","action":"vote","castAt":1764570000}],"refusals":[]}
    """

  @Test("without a directory, the state goes to the app's own directory")
  func defaultPlace() throws {
    let closed = try ClosedPort()
    let counting = CountingAPIVoter(server: closed.url, namespace: "roadmap")
    let expected = VoterIdentity.appDirectory.appendingPathComponent("votes-roadmap.json")
    // Neither reads nor writes a file: only the place is asked.
    #expect(DurableVoter(base: counting).stateFile == expected)
    #expect(DurableVoter(base: counting, namespace: "roadmap").stateFile == expected)
    let support = try temporaryDirectory()
    #expect(
      voter(closed.url, support: support, app: "com.one.app").stateFile.path
        == support.path + "/RoadmapBridge/com.one.app/votes-roadmap.json")
  }

  @Test("two apps with one namespace on two servers keep two states")
  func twoAppsTwoStates() async throws {
    let support = try temporaryDirectory()
    let serverA = try LiveCounter()
    let serverB = try LiveCounter()
    let appA = voter(serverA.url, support: support, app: "com.one.app")
    let appB = voter(serverB.url, support: support, app: "com.two.app")
    #expect(try await appA.castVote(for: RoadmapFeature(id: "1")) == 1)
    // B's user never voted for 1 on B's server: B shows no vote and sends the one asked.
    #expect(try !appB.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try await appB.castVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(serverB.targets.contains("/hit/roadmap/feature1"))
    // A vote A queued offline is A's: B's reads do not send it to B's server.
    let closed = try ClosedPort()
    let offlineA = voter(closed.url, support: support, app: "com.one.app")
    #expect(try await offlineA.castVote(for: RoadmapFeature(id: "2")) == 1)
    #expect(try offlineA.pendingVotes().map(\.featureID) == ["2"])
    #expect(try await appB.count(for: RoadmapFeature(id: "3")) == 0)
    #expect(!serverB.targets.contains("/hit/roadmap/feature2"))
    #expect(try appB.pendingVotes().isEmpty)
    // A sends it to A's server once that answers.
    #expect(try await appA.flush().sent.map(\.featureID) == ["2"])
    #expect(serverA.targets.contains("/hit/roadmap/feature2"))
    let shared = support.appendingPathComponent("RoadmapBridge/votes-roadmap.json")
    #expect(!FileManager.default.fileExists(atPath: shared.path))
    await serverA.stop()
    await serverB.stop()
  }

  @Test("the state the apps shared is copied on first use, never changed, and not once forgotten")
  func sharedStateCarriesOver() async throws {
    let support = try temporaryDirectory()
    let shared = try writeSharedState(sharedState, in: support)
    let closed = try ClosedPort()
    let app = voter(closed.url, support: support, app: "com.one.app")
    // The votes and queue the user had, in the app's own file.
    #expect(try app.hasVoted(for: RoadmapFeature(id: "1")))
    #expect(try app.pendingVotes().map(\.featureID) == ["2"])
    #expect(try Data(contentsOf: app.stateFile) == Data(sharedState.utf8))
    // Another app updated later copies it too (as both read one file before).
    let other = voter(closed.url, support: support, app: "com.two.app")
    #expect(try other.votedFeatureIDs() == ["1", "2"])
    // The app's changes stay in its file; the shared one is never changed.
    #expect(try await app.castVote(for: RoadmapFeature(id: "3")) == 1)
    #expect(try app.pendingVotes().map(\.featureID) == ["2", "3"])
    #expect(try other.pendingVotes().map(\.featureID) == ["2"])
    #expect(try String(contentsOf: shared, encoding: .utf8) == sharedState)
    // Forgotten, the shared state is not copied again, in this process or the next one.
    try await app.forget()
    #expect(try app.votedFeatureIDs().isEmpty)
    let nextLaunch = VoteLedger(
      file: app.stateFile, namespace: "roadmap", carryOver: shared)
    #expect(try nextLaunch.state() == VoteLedger.State(namespace: "roadmap"))
    #expect(!FileManager.default.fileExists(atPath: app.stateFile.path))
    #expect(try String(contentsOf: shared, encoding: .utf8) == sharedState)
  }

  @Test("a shared file that holds no state is not copied, and is left as it is")
  func damagedSharedState() throws {
    let support = try temporaryDirectory()
    let shared = try writeSharedState("not a state file", in: support)
    let closed = try ClosedPort()
    let app = voter(closed.url, support: support, app: "com.one.app")
    #expect(try app.votedFeatureIDs().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: app.stateFile.path))
    #expect(try String(contentsOf: shared, encoding: .utf8) == "not a state file")
  }

  @Test("a directory the app gives is used as it is: nothing is copied into it")
  func givenDirectory() throws {
    let support = try temporaryDirectory()
    _ = try writeSharedState(sharedState, in: support)
    let closed = try ClosedPort()
    let counting = CountingAPIVoter(server: closed.url, namespace: "roadmap")
    let own = DurableVoter(
      base: counting, directory: support.appendingPathComponent("RoadmapBridge/com.one.app"))
    #expect(try own.votedFeatureIDs().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: own.stateFile.path))
    // The shared directory given as it is: its state, as before.
    let given = DurableVoter(
      base: counting, directory: support.appendingPathComponent("RoadmapBridge"))
    #expect(try given.votedFeatureIDs() == ["1", "2"])
  }

  /// Bug: a read (`VoteLedger.state()`, every count and `hasVoted`) copied the shared state
  /// on first use without the file lock, looking for `votes-NS.json.forgotten` first: a
  /// `forget()` in another process between the look and the copy left its marker, and then the
  /// copy brought the forgotten votes and queue back. The look and the copy are now made
  /// holding the state file's lock, which the forget takes too.
  @Test("a forget() in another process during the first copy of the shared state is not undone")
  func forgetDuringTheFirstCopy() throws {
    let support = try temporaryDirectory()
    let shared = try writeSharedState(sharedState, in: support)
    let file = VoteLedger.file(
      for: "roadmap", in: VoterIdentity.appDirectory(in: support, app: "com.one.app"))
    // Two ledgers of one file: two processes.
    let reader = VoteLedger(file: file, namespace: "roadmap", carryOver: shared)
    let forgetter = VoteLedger(file: file, namespace: "roadmap", carryOver: shared)
    let forgotten = DispatchSemaphore(value: 0)
    reader.beforeCarryOver = {
      runWhenUnlocked(reader.lockFile, done: forgotten) { try? forgetter.remove() }
    }
    #expect(try reader.state().voted == ["1"])
    #expect(forgotten.wait(timeout: .now() + 120) == .success)
    let later = VoteLedger(file: file, namespace: "roadmap", carryOver: shared)
    #expect(try later.state().voted == [])
    #expect(try later.state().queue.isEmpty)
  }
}
