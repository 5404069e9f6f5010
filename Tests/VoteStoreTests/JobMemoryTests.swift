import Foundation
import Testing

@testable import VoteStore

/// A database job lets go of what its caller handed over (for a round of votes: the votes and
/// what their answers need) once nothing more will happen to it, though its queue's watchdog
/// keeps it listed for a while. Before, every settled job kept its batch alive until the
/// watchdog dropped it: under `/hit` load thousands of rounds at once, and a `serve` that grew
/// to 680 MB.
@Suite struct JobMemoryTests {
  /// Something a job's closures hold, to see when they let go of it.
  final class Payload: Sendable {}

  /// The results a job's completion was called with.
  final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []
    func add(_ value: Int) { lock.withLock { values.append(value) } }
    var all: [Int] { lock.withLock { values } }
  }

  @Test func aFinishedJobLetsGoOfItsWorkAndCompletion() throws {
    let queue = JobQueue<Int>(deadlineMilliseconds: 600_000)
    defer { queue.close() }
    weak var held: Payload?
    let answered = Answers()
    let (earlier, later): (DatabaseJob<Int>, DatabaseJob<Int>)
    do {
      let payload = Payload()
      held = payload
      earlier = DatabaseJob<Int>.make({ _ throws(VoteStoreError) in 0 }, completion: { _ in })
      later = DatabaseJob<Int>.make(
        { _ throws(VoteStoreError) in withExtendedLifetime(payload) { 1 } },
        completion: { result in
          withExtendedLifetime(payload) {
            answered.add((try? result.get()) ?? -1)
          }
        })
    }
    #expect(queue.enqueue(earlier) == nil)
    #expect(queue.enqueue(later) == nil)
    let taken = try #require(queue.take(limit: 2))
    #expect(taken.count == 2)
    // The later job is run and finished; the earlier one is still in its thread's hands, so
    // the watchdog's list keeps both.
    #expect(later.run(0))
    later.finish()
    #expect(answered.all == [1])
    #expect(held == nil, "the finished job still holds what its caller handed over")
    earlier.finish()
  }

  @Test func aJobAnsweredByItsDeadlineLetsGoOfItsCompletion() throws {
    let queue = JobQueue<Int>(deadlineMilliseconds: 1_000)
    defer { queue.close() }
    weak var held: Payload?
    let answered = DispatchSemaphore(value: 0)
    let job: DatabaseJob<Int>
    do {
      let payload = Payload()
      held = payload
      job = DatabaseJob<Int>.make(
        { _ throws(VoteStoreError) in 1 },
        completion: { result in
          withExtendedLifetime(payload) {
            if case .failure(let error) = result, error.kind == .io { answered.signal() }
          }
        })
    }
    #expect(queue.enqueue(job) == nil)
    // A look long after the deadline: the job, never taken, is answered and taken out.
    _ = queue.sweep(clock: { .max })
    #expect(answered.wait(timeout: .now() + 60) == .success)
    #expect(job.isExpired)
    #expect(held == nil, "the answered job still holds its completion")
  }
}
