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

  /// Ids whose keys break the server's name rule `^[A-Za-z0-9_\-.]{3,64}$`.
  static let badIDs = ["dark mode", "é", String(repeating: "x", count: 58)]

  /// Reads every id at once through `voter`, as the Roadmap package's rows do.
  static func readTogether(_ voter: some FeatureVoter, _ ids: [String]) async -> [String: Int] {
    await withTaskGroup(of: (String, Int).self) { group in
      for id in ids { group.addTask { (id, await voter.fetch(for: RoadmapFeature(id: id))) } }
      var counts: [String: Int] = [:]
      for await (id, count) in group { counts[id] = count }
      return counts
    }
  }

  @Test("one bad id in a window does not blank the others", arguments: badIDs)
  func badIDDoesNotBlankTheWindow(bad: String) async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    _ = try await writer.castVote(for: RoadmapFeature(id: "1"))
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    let directory = try temporaryDirectory()
    // The stack the Roadmap sample uses.
    let voter = CoalescingVoter(
      base: DurableVoter(
        base: CountingAPIVoter(server: service.url, namespace: "ns1", readRetry: .none),
        namespace: "ns1", directory: directory),
      window: 0.2)
    let counts = await Self.readTogether(voter, ["1", bad, "2", "3"])
    #expect(counts == ["1": 1, bad: 0, "2": 2, "3": 0])
    // Each read says why it failed, only the bad one does.
    let error = await votingError { try await voter.count(for: RoadmapFeature(id: bad)) }
    #expect(error?.kind == .refused && error?.status == 400, "\(String(describing: error))")
    // The bad key never went into a batch: the batch route got only good keys.
    let batches = service.targets.filter { $0.hasPrefix("/counts/") }
    #expect(!batches.isEmpty)
    let encoded = PercentEncodingProbe.segment("feature" + bad)
    #expect(batches.allSatisfy { !$0.contains(encoded) }, "\(batches)")
    await service.stop()
  }

  /// The two stacks a window's reads go through: CountingAPIVoter alone, and the Roadmap
  /// sample's, with a DurableVoter between.
  enum Stack: String, CaseIterable, Sendable {
    case counting, durable
  }

  @Test(
    "bad ids in a window are read on their own; the good ids come from the batch, not again",
    arguments: Stack.allCases)
  func badIDsAloneAreReadAgain(stack: Stack) async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    _ = try await writer.castVote(for: RoadmapFeature(id: "1"))
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    let long = String(repeating: "x", count: 70)
    let base = CountingAPIVoter(server: service.url, namespace: "ns1")
    let voter: any FeatureVoter =
      switch stack {
      case .counting: CoalescingVoter(base: base, window: 0.2)
      case .durable:
        CoalescingVoter(
          base: DurableVoter(base: base, namespace: "ns1", directory: try temporaryDirectory()),
          window: 0.2)
      }
    let before = service.requests.count
    let counts = await Self.readTogether(voter, ["1", "2", "dark mode", "3", long])
    #expect(counts == ["1": 1, "2": 2, "dark mode": 0, "3": 0, long: 0])
    let requests = Array(service.targets[before...])
    let batches = requests.filter { $0.hasPrefix("/counts/ns1?keys=") }
    let singles = requests.filter { !$0.hasPrefix("/counts/") }
    // Only the two ids the batch route cannot take are read on their own, once each: the
    // good ones were answered by the batch (one request, unless scheduling split the window).
    #expect(
      singles.sorted() == ["/get/ns1/feature" + long, "/get/ns1/featuredark%20mode"].sorted(),
      "\(requests)")
    #expect(!batches.isEmpty && requests.count == batches.count + 2, "\(requests)")
    // Each bad id says why it failed, on its own single read.
    let after = service.requests.count
    for bad in ["dark mode", long] {
      let error = await votingError { try await voter.count(for: RoadmapFeature(id: bad)) }
      #expect(error?.kind == .refused && error?.status == 400, "\(String(describing: error))")
    }
    #expect(service.requests.count == after + 2)
    await service.stop()
  }

  @Test("a refused batch is read again one feature at a time; no server fails them all at once")
  func refusedBatchFallsBackPerFeature() async throws {
    let base = RefusingBatchVoter()
    let voter = CoalescingVoter(base: base, window: 0.2)
    let counts = await Self.readTogether(voter, ["1", "bad", "2"])
    #expect(counts == ["1": 1, "bad": 0, "2": 2])
    #expect(base.singleReads.sorted() == ["1", "2", "bad"])
    let offline = CoalescingVoter(base: RefusingBatchVoter(batchError: .offline("down")))
    let error = await votingError { try await offline.count(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .offline)
  }

  @Test("a window of .infinity, NaN or a huge number neither traps nor waits forever")
  func windowsTooLargeToConvert() async throws {
    for window in [TimeInterval.infinity, 1e300, .greatestFiniteMagnitude] {
      let voter = CoalescingVoter(base: RefusingBatchVoter(), window: window)
      #expect(voter.window == CoalescingVoter<RefusingBatchVoter>.longestWindow)
      #expect(try await voter.count(for: RoadmapFeature(id: "2")) == 2)
    }
    #expect(CoalescingVoter(base: RefusingBatchVoter(), window: .nan).window == 0)
    #expect(CoalescingVoter(base: RefusingBatchVoter(), window: -3).window == 0)
  }
}

/// The percent-encoding CountingAPIVoter puts on the wire (everything but A-Z a-z 0-9 - . _ ~).
enum PercentEncodingProbe {
  static func segment(_ text: String) -> String {
    var allowed = CharacterSet(charactersIn: "-._~")
    allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
    allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
    allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}

/// A voter whose batch read is refused whenever it holds the id `bad` (or fails with
/// `batchError`), and whose single reads answer the id as a number.
final class RefusingBatchVoter: FeatureVoter, @unchecked Sendable {
  private let lock = NSLock()
  private var reads: [String] = []
  let batchError: VotingError?

  init(batchError: VotingError? = nil) { self.batchError = batchError }

  var singleReads: [String] { lock.withLock { reads } }

  func fetch(for feature: RoadmapFeature) async -> Int { (try? await count(for: feature)) ?? 0 }
  func vote(for feature: RoadmapFeature) async -> Int? { nil }
  func unvote(for feature: RoadmapFeature) async -> Int? { nil }

  func count(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    lock.withLock { reads.append(feature.id) }
    if let batchError { throw batchError }
    guard let count = Int(feature.id) else {
      throw .refused(status: 400, reason: "bad name", url: "test")
    }
    return count
  }

  func counts(for features: [RoadmapFeature]) async throws(VotingError) -> [String: Int] {
    if let batchError { throw batchError }
    if features.contains(where: { $0.id == "bad" }) {
      throw .refused(status: 400, reason: "bad name", url: "test")
    }
    return features.reduce(into: [:]) { $0[$1.id] = Int($1.id) ?? 0 }
  }
}
