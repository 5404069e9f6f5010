import Foundation
import Testing
import VoteStore

/// Data written by a process that dies is recovered from the WAL: committed data is there,
/// the open transaction is not.
@Suite struct SQLiteDurabilityTests {
  @Test func killedWriterLeavesOnlyItsCommittedTransactions() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k", value: 5))
    await store.close()

    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    // The child commits +1, then opens a transaction with many more changes, spills them
    // into the WAL (tiny cache), reports, and waits to be killed.
    let child = try startPython(
      """
      import sqlite3, sys, time
      db = sqlite3.connect(sys.argv[1], isolation_level=None)
      db.execute("PRAGMA journal_mode = WAL")
      db.execute("PRAGMA synchronous = FULL")
      db.execute("PRAGMA cache_size = 1")
      db.execute("UPDATE counters SET value = value + 1 WHERE namespace = 'ns' AND key = 'k'")
      db.execute("BEGIN IMMEDIATE")
      db.execute("UPDATE counters SET value = 1000 WHERE namespace = 'ns' AND key = 'k'")
      for i in range(3000):
          db.execute(
              "INSERT INTO counters (namespace, key, value, enable_reset, lower, upper,"
              " created_ms, updated_ms) VALUES ('ns', ?, 1, 0, -1, 1, 0, 0)",
              ("uncommitted-%d-%s" % (i, "x" * 200),))
      print("ready", flush=True)
      time.sleep(600)
      """, arguments: [path])
    try child.waitForLine("ready")
    let walSize =
      (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    #expect(walSize > 100_000, "the open transaction was spilled into the WAL")
    child.kill()

    let reopened = try SQLiteVoteStore(directory: dir.url)
    #expect(try await reopened.record(namespace: "ns", key: "k")?.value == 6)
    #expect(try await reopened.statistics().counters == 1)
    // And the store writes on after recovery.
    let after = try await reopened.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    #expect(after.record?.value == 7)
    await reopened.close()
  }

  @Test func openingWhileAnotherProcessHoldsTheWriteLockIsBusy() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    await store.close()
    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    let child = try startPython(
      """
      import sqlite3, sys, time
      db = sqlite3.connect(sys.argv[1], isolation_level=None)
      db.execute("BEGIN IMMEDIATE")
      db.execute("UPDATE meta SET value = value WHERE name = 'updates'")
      print("locked", flush=True)
      time.sleep(600)
      """, arguments: [path])
    try child.waitForLine("locked")
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(
        directory: dir.url, options: .init(busyTimeoutMilliseconds: 100))
    }
    child.kill()
    #expect(failure?.kind == .busy)
    let reopened = try SQLiteVoteStore(directory: dir.url)
    try await reopened.checkHealth()
    await reopened.close()
  }

  @Test func anotherProcessHoldingTheWriteLockMakesWritesBusyNotLost() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(
      directory: dir.url, options: .init(busyTimeoutMilliseconds: 200))
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))
    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    let child = try startPython(
      """
      import sqlite3, sys, time
      db = sqlite3.connect(sys.argv[1], isolation_level=None)
      db.execute("BEGIN IMMEDIATE")
      print("locked", flush=True)
      time.sleep(600)
      """, arguments: [path])
    try child.waitForLine("locked")
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    }
    #expect(failure?.kind == .busy)
    // Reads still work while another process writes (WAL).
    #expect(try await store.record(namespace: "ns", key: "k")?.value == 0)
    child.kill()
    let later = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    #expect(later.record?.value == 1)
    await store.close()
  }
}

/// Two store instances on one file (as two processes would be) stay exact.
@Suite struct SQLiteSharedFileTests {
  @Test func twoInstancesOnOneFileLoseNothing() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let first = try SQLiteVoteStore(directory: dir.url)
    let second = try SQLiteVoteStore(directory: dir.url)
    let create = CounterCreation(namespace: "ns", key: "k")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<32 {
        let store = task.isMultiple(of: 2) ? first : second
        group.addTask {
          for _ in 0..<10 {
            _ = try await store.apply(
              CounterMutation(namespace: "ns", key: "k", delta: 1, createIfMissing: create))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await first.record(namespace: "ns", key: "k")?.value == 320)
    #expect(try await second.statistics().updates == 320)
    await first.close()
    await second.close()
  }
}

/// The WAL is checkpointed into the database file by the store's own checkpointer thread.
@Suite struct SQLiteCheckpointTests {
  @Test func aLargeWALIsCheckpointedWhileTheStoreIsOpen() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    let file = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    func size(_ path: String) -> Int {
      ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
    let before = size(file)
    // 3,000 counters with 30 voters each: about 6 MiB of voter hashes, keys and index pages.
    let export = VoteExport(
      version: 1,
      counters: (0..<3000).map { index in
        VoteExport.Counter(
          record: CounterRecord(
            id: 0, namespace: "ns.test", key: "key-\(index)", value: 30, enableReset: false,
            updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0),
          voters: (0..<30).map { "voter-\(index)-\($0)" })
      })
    _ = try await store.importAll(export, replace: false)
    var waited = 0
    while size(file) < 4 << 20 && waited < 400 {
      try await Task.sleep(for: .milliseconds(50))
      waited += 1
    }
    #expect(size(file) > before + (4 << 20), "the database file received the WAL's pages")
    #expect(try await store.statistics().counters == 3000)
    await store.close()
  }
}
