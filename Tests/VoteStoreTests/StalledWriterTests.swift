import Foundation
import Testing

@testable import VoteStore

#if canImport(Glibc)
  import Glibc
#endif

/// A SQLite store whose writer is stuck (a disk that stopped answering an fsync, a frozen file
/// system; here a write that sleeps on the writer thread) answers every call within its
/// deadline, and takes writes again once the writer lets go. Without the deadline a vote, a
/// board read and `/healthz` waited as long as the disk did, and a vote its client had given
/// up on was committed after the thaw.
@Suite struct StalledWriterTests {
  /// A store with a short deadline, and a write that holds its writer until `release` is
  /// signalled (not for a set time: in a loaded full run the test's own steps can take
  /// seconds), once the writer has begun it.
  static func stalled(
    in dir: TemporaryDirectory, deadline: Int = 300, release: DispatchSemaphore
  ) async throws -> (store: SQLiteVoteStore, held: Task<VoteStoreError?, Never>) {
    let store = try SQLiteVoteStore(
      directory: dir.url, options: .init(answerDeadlineMilliseconds: deadline))
    // On a loaded machine the writer may not take the write within the deadline: it is then
    // answered without running (nothing was changed), and the test makes another.
    for _ in 0..<10 {
      let begun = Flag()
      let done = Flag()
      let held = Task {
        defer { done.set() }
        return await storeError { () throws(VoteStoreError) in
          _ = try await store.write { _ in
            begun.set()
            release.wait()
          }
        }
      }
      // A Task on the global executor, which a loaded full run may not start for a minute.
      #expect(await eventually(within: 240) { begun.isSet || done.isSet })
      // Taken (answered as timed out, or not answered yet): its body runs, if not already.
      let taken = begun.isSet ? true : (await held.value)?.kind == .timedOut
      if taken {
        #expect(await eventually { begun.isSet })
        return (store, held)
      }
    }
    Issue.record("the writer never took the held write")
    throw VoteStoreError(.io, "the writer never took the held write")
  }

  /// A flag one thread sets and another reads.
  final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
  }

  /// Waits (bounded) until `condition` holds.
  static func eventually(within seconds: Double = 60, _ condition: () async -> Bool) async
    -> Bool
  {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if await condition() { return true }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return await condition()
  }

  @Test func callsAreAnsweredWithinTheDeadlineAndWritesResumeAfter() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let before = try SQLiteVoteStore(directory: dir.url)
    _ = try await before.create(CounterCreation(namespace: "ns", key: "k"))
    _ = try await before.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    await before.close()
    let release = DispatchSemaphore(value: 0)
    let (store, held) = try await Self.stalled(in: dir, release: release)
    defer { release.signal() }
    // The held write itself: taken by the writer, so its outcome is unknown.
    let first = await held.value
    #expect(first?.kind == .timedOut, "\(String(describing: first))")
    #expect(first?.outcomeIsUnknown == true)
    #expect(first?.message.contains("may or may not have been made") == true)

    // While the writer still holds it: a vote is refused, saying nothing was changed, and
    // the health check says so without waiting for a probe.
    let vote = await storeError { () throws(VoteStoreError) in
      _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    }
    #expect(vote?.kind == .io, "\(String(describing: vote))")
    #expect(vote?.outcomeIsUnknown == false)
    #expect(vote?.message.contains("nothing was changed") == true)
    let health = await storeError { () throws(VoteStoreError) in try await store.checkHealth() }
    #expect(health?.publicMessage == "the database is not answering; nothing was changed")
    #expect(store.writeHealth().isFailing)

    // Once the writer lets go, writes are taken again; the refused vote was not counted.
    // (A vote the writer did not finish within the deadline on a loaded machine may or may
    // not count: allowed for.)
    release.signal()
    var last: VoteStoreError?
    var unsure = 0
    #expect(
      await Self.eventually {
        last = await storeError { () throws(VoteStoreError) in
          _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
        }
        if last?.outcomeIsUnknown == true { unsure += 1 }
        return last == nil
      }, "\(String(describing: last))")
    let value = try await store.record(namespace: "ns", key: "k")?.value ?? 0
    #expect(value >= 2 && value <= 2 + Int64(unsure), "\(value) after \(unsure) unsure answers")
    await store.close()
  }

  /// A write queued behind the stuck one, never taken: answered by the deadline with nothing
  /// changed, and never run afterwards.
  @Test func aQueuedWriteIsAnsweredAndNeverRun() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let release = DispatchSemaphore(value: 0)
    let (store, held) = try await Self.stalled(in: dir, release: release)
    defer { release.signal() }
    // Queued while the writer is busy and before the deadline: it waits in the queue.
    let queued = await storeError { () throws(VoteStoreError) in
      _ = try await store.create(CounterCreation(namespace: "ns", key: "queued"))
    }
    #expect(queued?.kind == .io, "\(String(describing: queued))")
    #expect(queued?.outcomeIsUnknown == false)
    release.signal()
    _ = await held.value
    // (Made, or already made by an earlier try the writer finished after its deadline.)
    #expect(
      await Self.eventually {
        if (try? await store.create(CounterCreation(namespace: "ns", key: "after"))) != nil {
          return true
        }
        return (try? await store.record(namespace: "ns", key: "after")) != nil
      })
    #expect(try await store.record(namespace: "ns", key: "queued") == nil)
    #expect(try await store.record(namespace: "ns", key: "after") != nil)
    await store.close()
  }

  /// Without a deadline (the default, for commands such as a long import) a slow write is
  /// waited for.
  @Test func withoutADeadlineASlowWriteIsWaitedFor() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    let slow = await storeError { () throws(VoteStoreError) in
      _ = try await store.write { _ in usleep(1_000_000) }
    }
    #expect(slow == nil)
    await store.close()
  }
}

/// A job newer than the watchdog's reading of the clock is not late. One queued between the
/// watchdog's reading and its taking the queue's lock was: its age wrapped around past any
/// deadline, and it was answered 503 at once (64 votes of a loaded full run, one per
/// connection, and board writes in another test).
@Suite struct WatchdogClockTests {
  @Test func aJobNewerThanTheWatchdogsReadingIsNotLate() async throws {
    let queue = JobQueue<Int>(deadlineMilliseconds: 600_000)
    let answered = DispatchSemaphore(value: 0)
    let job = DatabaseJob<Int>.make(
      { _ throws(VoteStoreError) in 1 }, completion: { _ in answered.signal() })
    #expect(queue.enqueue(job) == nil)
    // A reading taken before the job was queued.
    _ = queue.sweep(clock: { 0 })
    // (A late job would have been taken out of the queue: the take below would wait forever.)
    try #require(!job.isExpired)
    #expect(queue.stalled == nil)
    // Taken and run as usual.
    let taken = try #require(queue.take(limit: 1))
    #expect(taken.count == 1)
    _ = taken[0].run(0)
    taken[0].finish()
    #expect(answered.wait(timeout: .now() + 60) == .success)
    queue.close()
  }
}
