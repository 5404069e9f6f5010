import Foundation
import TestProcess
import Testing

@testable import VoteStore

/// `SQLiteVoteStore.submitBatch` hand-overs made while the writer has not begun the last one
/// join it (`VoteGatherer`): one job, each counter's votes together, each hand-over answered
/// with its own votes' results.
@Suite struct VoteGatheringTests {
  static let ns = "app.example"

  static func vote(_ key: String, voter: String? = nil) -> CounterMutation {
    CounterMutation(
      namespace: ns, key: key, delta: 1, voter: voter,
      createIfMissing: CounterCreation(namespace: ns, key: key))
  }

  /// A vote's result as (key, value), or the error's kind.
  static func outcome(_ result: Result<MutationResult, VoteStoreError>) -> String {
    switch result {
    case .success(let done): "\(done.record?.key ?? "-")=\(done.record?.value ?? -1)"
    case .failure(let error): "\(error.kind)"
    }
  }

  @Test("hand-overs join the open gathering until it is sealed, and each hears its own")
  func gathererParts() throws {
    let gatherer = VoteGatherer()
    let heard = Heard()
    let first = gatherer.add([Self.vote("a"), Self.vote("b")]) { heard.append(1, $0) }
    #expect(first != nil)
    #expect(gatherer.add([Self.vote("c")]) { heard.append(2, $0) } == nil)
    let gathering = try #require(first)
    #expect(gatherer.seal(gathering).map(\.key) == ["a", "b", "c"])
    // Sealed: the next hand-over begins a new gathering.
    let next = gatherer.add([Self.vote("d")]) { heard.append(3, $0) }
    #expect(next != nil && next !== gathering && gatherer.gatheringsBegun == 2)
    let record = { (key: String, value: Int64) in
      MutationResult(
        outcome: .applied,
        record: CounterRecord(
          id: 1, namespace: Self.ns, key: key, value: value, enableReset: false,
          updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0))
    }
    gathering.answer(
      .success([.success(record("a", 1)), .failure(.closed), .success(record("c", 3))]))
    #expect(heard.parts == [1: ["a=1", "closed"], 2: ["c=3"]])
    next?.answer(.failure(VoteStoreError(.io, "disk gone")))
    #expect(heard.parts[3] == ["io"])
  }

  @Test("a gathering takes at most mostVotes votes; the next hand-over begins another")
  func gatheringCap() {
    let gatherer = VoteGatherer()
    let many = Array(repeating: Self.vote("a"), count: VoteGatherer.mostVotes - 1)
    #expect(gatherer.add(many) { _ in } != nil)
    #expect(gatherer.add([Self.vote("b")]) { _ in } == nil)
    #expect(gatherer.add([Self.vote("c")]) { _ in } != nil)
    #expect(gatherer.gatheringsBegun == 2)
  }

  @Test("hand-overs made while the writer is busy run as one job, each answered with its own")
  func joinWhileWriterBusy() async throws {
    let directory = try TemporaryDirectory("vote-gathering")
    defer { directory.remove() }
    let store = try SQLiteVoteStore(directory: directory.url)
    // Counter "full" is at the most a count can be: its next vote is refused (out of range).
    _ = try await store.set(
      namespace: Self.ns, key: "full", value: CounterLimits.maximum,
      createIfMissing: CounterCreation(namespace: Self.ns, key: "full"))
    // Hold the writer in a job of its own while the hand-overs arrive.
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    async let held: Void = store.write { _ throws(VoteStoreError) in
      started.signal()
      gate.wait()
    }
    // Runs before `held` is awaited on a way out by a throw, so that the job can end.
    defer { gate.signal() }
    // Waited for on a thread of its own: blocking a pool thread here could hold the one the
    // write needs to be handed to the writer.
    let began = try await onOwnThread { started.wait(timeout: .now() + 120) == .success }
    try #require(began, "the writer did not begin the held job within 120 s")
    let before = store.gatherer.gatheringsBegun
    let handOvers: [[CounterMutation]] = [
      [Self.vote("a"), Self.vote("a"), Self.vote("b")],
      [Self.vote("a"), Self.vote("full"), Self.vote("b", voter: "v1")],
      [Self.vote("b", voter: "v1"), Self.vote("a")],
    ]
    let heard = Heard()
    let answered = DispatchGroup()
    for (index, mutations) in handOvers.enumerated() {
      answered.enter()
      store.submitBatch(mutations) {
        heard.append(index, $0)
        answered.leave()
      }
    }
    #expect(store.gatherer.gatheringsBegun == before + 1)
    gate.signal()
    try await held
    await withCheckedContinuation { continuation in
      answered.notify(queue: .global()) { continuation.resume() }
    }
    // In hand-over order, each counter's votes counted in turn; the refused vote fails alone,
    // and the voter's second vote on "b" changes nothing.
    #expect(
      heard.parts == [
        0: ["a=1", "a=2", "b=1"],
        1: ["a=3", "out-of-range", "b=2"],
        2: ["b=2", "a=4"],
      ])
    #expect(try await store.record(namespace: Self.ns, key: "a")?.value == 4)
    #expect(try await store.record(namespace: Self.ns, key: "b")?.value == 2)
    #expect(try await store.record(namespace: Self.ns, key: "full")?.value == CounterLimits.maximum)
    await store.close()
  }

  @Test("a closed store answers every hand-over of the gathering")
  func closedStore() async throws {
    let directory = try TemporaryDirectory("vote-gathering-closed")
    defer { directory.remove() }
    let store = try SQLiteVoteStore(directory: directory.url)
    await store.close()
    let results = await withCheckedContinuation { continuation in
      store.submitBatch([Self.vote("a"), Self.vote("b")]) { continuation.resume(returning: $0) }
    }
    #expect(results.map(Self.outcome) == ["closed", "closed"])
  }
}

/// What each hand-over was told, by its index.
private final class Heard: @unchecked Sendable {
  private let lock = NSLock()
  private var heard: [Int: [String]] = [:]

  func append(_ part: Int, _ results: [Result<MutationResult, VoteStoreError>]) {
    lock.lock()
    heard[part] = results.map(VoteGatheringTests.outcome)
    lock.unlock()
  }

  var parts: [Int: [String]] {
    lock.lock()
    defer { lock.unlock() }
    return heard
  }
}
