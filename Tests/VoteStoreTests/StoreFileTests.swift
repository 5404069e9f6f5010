import Foundation
import Testing
import VoteStore

/// Issue 7, item 3: a database is created only where no file exists; an empty or foreign
/// file is refused with its name, and left as it was.
@Suite struct StoreFileTests {
  @Test func aNewStoreIsCreatedWholeWithNothingElseLeftBehind() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    _ = try await store.create(CounterCreation(namespace: "ns.test", key: "k1"))
    await store.close()
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    #expect(names == ["votes.sqlite3", "votes.sqlite3-voter-key"], "\(names)")
    let reopened = try SQLiteVoteStore(directory: dir.url)
    #expect(try await reopened.statistics().counters == 1)
    await reopened.close()
  }

  /// A database deleted without its write-ahead log (a `kill -9`, then `rm votes.sqlite3`):
  /// a new store was created beside the old log, SQLite replayed the log's pages into it, and
  /// the start failed as "damaged" (or could read a mix of the two). Now it is refused before
  /// anything is made, and the log is left as it was.
  @Test func aNewStoreIsNotCreatedBesideAnOrphanedWriteAheadLog() async throws {
    let source = try TemporaryDirectory()
    defer { source.remove() }
    let target = try TemporaryDirectory()
    defer { target.remove() }
    let store = try SQLiteVoteStore(directory: source.url)
    let sourceFile = source.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    let targetFile = target.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    // The log as a crash leaves it: copied right after a commit, before the idle checkpoint
    // empties it (tried again until a copy holds frames).
    var log = Data()
    for round in 0..<10_000 where log.isEmpty {
      let key = "k\(round)"
      _ = try await store.apply(
        CounterMutation(
          namespace: "ns.test", key: key, delta: 1,
          createIfMissing: CounterCreation(namespace: "ns.test", key: key)))
      log = (try? Data(contentsOf: URL(fileURLWithPath: sourceFile + "-wal"))) ?? Data()
    }
    await store.close()
    try #require(!log.isEmpty)
    try log.write(to: URL(fileURLWithPath: targetFile + "-wal"))
    try FileManager.default.copyItem(
      atPath: sourceFile + "-voter-key", toPath: targetFile + "-voter-key")

    var refusal: VoteStoreError?
    do {
      let opened = try SQLiteVoteStore(directory: target.url)
      await opened.close()
    } catch {
      refusal = error
    }
    #expect(refusal?.kind == .incompatible, "\(String(describing: refusal))")
    #expect(
      refusal?.message.contains(
        "the database was deleted or moved away without its write-ahead log") == true)
    #expect(!FileManager.default.fileExists(atPath: targetFile))
    #expect(FileManager.default.contents(atPath: targetFile + "-wal") == log)
  }

  @Test(arguments: [false, true])
  func aDatabaseFileDeletedOrReplacedUnderTheStoreTakesNoMoreWrites(replaced: Bool) async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    let vote = CounterMutation(
      namespace: "ns.test", key: "k1", delta: 1,
      createIfMissing: CounterCreation(namespace: "ns.test", key: "k1"))
    _ = try await store.apply(vote)
    let file = dir.url.appendingPathComponent(SQLiteVoteStore.fileName)
    if replaced {
      // Another file put in its place (a restore done the wrong way, say).
      let other = dir.url.appendingPathComponent("other")
      try FileManager.default.copyItem(at: file, to: other)
      #expect(rename(other.path, file.path) == 0)
    } else {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: file.path + suffix)
      }
    }
    for _ in 0..<2 {
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(vote)
      }
      #expect(failure?.kind == .io)
      #expect(
        failure?.message.contains(
          "the database file \(file.path) was deleted or replaced while the store had it open, "
            + "so nothing was written") == true, "\(String(describing: failure))")
    }
    let health = await storeError { () throws(VoteStoreError) in try await store.checkHealth() }
    #expect(health?.kind == .io)
    await store.close()
  }

  @Test func anEmptyFileIsRefusedAndKept() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let file = dir.url.appendingPathComponent(SQLiteVoteStore.fileName)
    try Data().write(to: file)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(directory: dir.url)
    }
    #expect(failure?.kind == .incompatible)
    #expect(failure?.message.contains("\(file.path) is an empty file (0 bytes)") == true)
    #expect(try Data(contentsOf: file).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["votes.sqlite3"])
  }

  @Test(arguments: [
    ("another program's tables", "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)", 0),
    (
      "tables but no version",
      "CREATE TABLE counters (x); CREATE TABLE voters (x); CREATE TABLE meta (x)", 0
    ),
    ("no tables at all", "VACUUM", 0),
    ("a version but not our tables", "CREATE TABLE things (x)", 2),
  ])
  func aForeignDatabaseIsRefusedAndLeftUntouched(name: String, sql: String, version: Int)
    async throws
  {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let file = dir.url.appendingPathComponent(SQLiteVoteStore.fileName)
    try await runPython(
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.executescript(sys.argv[2])
      db.execute("PRAGMA user_version = %d" % int(sys.argv[3]))
      db.commit()
      db.close()
      """, arguments: [file.path, sql, String(version)])
    let before = try Data(contentsOf: file)
    #expect(!before.isEmpty)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(directory: dir.url)
    }
    #expect(failure?.kind == .incompatible, "\(name)")
    #expect(failure?.message.contains("\(file.path) is a SQLite database but not a") == true)
    #expect(try Data(contentsOf: file) == before)
    #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
  }
}
