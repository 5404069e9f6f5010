import Foundation
import Testing

@testable import VoteStore

/// The SQLite store commits without syncing and answers a write only after a sync of the WAL
/// that began after its commit (`SQLiteWALSyncer`). These tests put a gate in place of the
/// `fdatasync`, so they can see the order: committed, then synced, then answered.
@Suite struct WALSyncerTests {
  @Test func aWriteIsCommittedBeforeItsSyncAndAnsweredOnlyAfterIt() async throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let store = try fixture.open()
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))

    fixture.gate.hold()
    let answered = Flag()
    let vote = Task {
      let result = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
      answered.set()
      return result
    }
    try await fixture.gate.waitUntilHeld()
    // The sync began after the commit: another connection already reads the vote...
    #expect(try fixture.committedValue() == 1)
    // ...and nobody was told of it while the sync is under way.
    try await Task.sleep(nanoseconds: 200_000_000)
    #expect(!answered.isSet)
    fixture.gate.release()
    #expect(try await vote.value.record?.value == 1)
    #expect(answered.isSet)
    await store.close()
  }

  @Test func writesCommittedDuringOneSyncAreAnsweredTogetherByTheNext() async throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let store = try fixture.open()
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))

    fixture.gate.hold()
    let before = fixture.gate.calls
    let first = Task { try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1)) }
    try await fixture.gate.waitUntilHeld()
    // The writer runs on during the sync: 20 more votes commit, in however many groups.
    let more = (0..<20).map { _ in
      Task { try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1)) }
    }
    try await fixture.waitForCommittedValue(21)
    fixture.gate.release()
    var values = [try await first.value.record?.value ?? -1]
    for task in more { values.append(try await task.value.record?.value ?? -1) }
    #expect(values.sorted() == Array(1...21))
    // One sync for the first vote, one more for everything committed while it ran.
    #expect(fixture.gate.calls - before == 2)
    await store.close()
  }

  @Test func aFailedSyncFailsItsWritesAndEveryLaterOne() async throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let store = try fixture.open()
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))

    fixture.gate.failNext(VoteStoreError(.notDurable, "cannot sync the write-ahead log: EIO"))
    let failed = await storeError { () throws(VoteStoreError) in
      _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    }
    #expect(failed?.kind == .notDurable)
    #expect(failed?.outcomeIsUnknown == true)
    #expect(failed?.message.contains("EIO") == true)
    // The store takes no more writes, and does not try to sync again.
    let calls = fixture.gate.calls
    let later = await storeError { () throws(VoteStoreError) in
      _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    }
    #expect(later?.kind == .io)
    #expect(later?.message.contains("no more writes until it is reopened") == true)
    #expect(later?.message.contains("EIO") == true)
    #expect(fixture.gate.calls == calls)
    #expect(try fixture.committedValue() == 1, "the first vote was committed, not the later one")
    await store.close()

    // Reopened (with syncs that work), it writes again.
    let reopened = try fixture.open()
    let after = try await reopened.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    #expect(after.record?.value == 2)
    await reopened.close()
  }

  @Test func closingPassesOnWhatWaitsForItsSync() async throws {
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let store = try fixture.open()
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))

    fixture.gate.hold()
    let vote = Task { try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1)) }
    try await fixture.gate.waitUntilHeld()
    let closed = Flag()
    let closing = Task {
      await store.close()
      closed.set()
    }
    try await Task.sleep(nanoseconds: 200_000_000)
    #expect(!closed.isSet, "close waits for the sync of what is committed")
    fixture.gate.release()
    #expect(try await vote.value.record?.value == 1)
    await closing.value
    #expect(closed.isSet)
  }

  @Test func theWALFileIsOpenedAtItsFirstSyncAndAgainWhenReplaced() throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.url.appendingPathComponent("votes.sqlite3-wal").path
    let file = WALFile(path: path)
    let missing = file.sync()
    #expect(missing?.kind == .notDurable)
    #expect(missing?.message.contains("cannot open the write-ahead log \(path)") == true)
    #expect(missing?.message.contains("may not be durable") == true)

    #expect(FileManager.default.createFile(atPath: path, contents: Data("one".utf8)))
    #expect(file.sync() == nil)
    // Replaced by a new file of the same name: the old descriptor is dropped for the new one.
    try FileManager.default.removeItem(atPath: path)
    #expect(FileManager.default.createFile(atPath: path, contents: Data("two".utf8)))
    #expect(file.sync() == nil)
    try FileManager.default.removeItem(atPath: path)
    #expect(file.sync()?.kind == .notDurable, "a WAL that is gone cannot be synced")
  }
}

/// A temporary store whose WAL syncs go through ``gate``.
private struct SyncFixture {
  let dir: TemporaryDirectory
  let gate = SyncGate()
  var path: String { dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path }

  init() throws { dir = try TemporaryDirectory() }

  func open() throws -> SQLiteVoteStore {
    let gate = gate
    return try SQLiteVoteStore(path: path, options: .init(), walSync: { gate.sync() })
  }

  /// The counter's value as another connection reads it (committed, synced or not).
  func committedValue() throws -> Int64? {
    let connection = try SQLiteConnection(path: path, create: false, busyTimeoutMilliseconds: 1000)
    defer { connection.close() }
    return try connection.integer(
      "SELECT value FROM counters WHERE namespace = 'ns' AND key = 'k'")
  }

  func waitForCommittedValue(_ value: Int64) async throws {
    for _ in 0..<600 where try committedValue() != value {
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    #expect(try committedValue() == value)
  }

  func remove() { dir.remove() }
}

/// Stands in for the `fdatasync`: counts calls, and can hold one until released or fail one.
private final class SyncGate: @unchecked Sendable {
  private let condition = NSCondition()
  private var holding = false
  private var held = false
  private var failure: VoteStoreError?
  private var count = 0

  var calls: Int {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  func sync() -> VoteStoreError? {
    condition.lock()
    defer { condition.unlock() }
    count += 1
    if let error = failure {
      failure = nil
      return error
    }
    if holding {
      held = true
      condition.broadcast()
      while holding { condition.wait() }
      held = false
    }
    return nil
  }

  private var isHeld: Bool {
    condition.lock()
    defer { condition.unlock() }
    return held
  }

  /// The next sync waits until ``release()``.
  func hold() {
    condition.lock()
    holding = true
    condition.unlock()
  }

  func release() {
    condition.lock()
    holding = false
    condition.broadcast()
    condition.unlock()
  }

  func failNext(_ error: VoteStoreError) {
    condition.lock()
    failure = error
    condition.unlock()
  }

  /// Returns once a sync is being held.
  func waitUntilHeld() async throws {
    for _ in 0..<600 {
      if isHeld { return }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    Issue.record("no sync began")
  }
}

/// A flag set once, read from any thread.
private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
