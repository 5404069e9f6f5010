import Foundation
import Testing
import VoteStore

/// How the SQLite store behaves when its file or disk is not what it should be.
@Suite struct SQLiteFailureTests {
  @Test func garbageFileIsRefusedAsCorruptWithItsPath() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let file = dir.url.appendingPathComponent(SQLiteVoteStore.fileName)
    try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: file)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(directory: dir.url)
    }
    #expect(failure?.kind == .corrupt)
    #expect(failure?.message.contains(file.path) == true)
    // The file is left as it was, for the operator to look at.
    #expect(try Data(contentsOf: file).count == 8192)
  }

  @Test func damagedPagesAreFoundByTheStartupCheck() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    for index in 0..<300 {
      _ = try await store.create(
        CounterCreation(namespace: "ns", key: "key-\(index)-" + String(repeating: "x", count: 40)))
    }
    await store.close()
    // Overwrite the middle of the file (not the header) with garbage.
    let file = dir.url.appendingPathComponent(SQLiteVoteStore.fileName)
    let handle = try FileHandle(forWritingTo: file)
    try handle.seek(toOffset: 4096 * 2 + 100)
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096 * 2))
    try handle.close()
    for check in [SQLiteVoteStoreOptions.StartupCheck.quick, .full, .automatic] {
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try SQLiteVoteStore(directory: dir.url, options: .init(startupCheck: check))
      }
      #expect(failure?.kind == .corrupt, "\(check)")
      #expect(failure?.message.contains(file.path) == true)
    }
  }

  @Test func dataDirectoryUnderARegularFileIsAnIOError() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let blocker = dir.url.appendingPathComponent("not-a-directory")
    try Data("x".utf8).write(to: blocker)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(directory: blocker.appendingPathComponent("data"))
    }
    #expect(failure?.kind == .io)
    #expect(failure?.message.contains(blocker.path) == true)
  }

  @Test func databasePathThatIsADirectoryIsAnIOError() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent(SQLiteVoteStore.fileName),
      withIntermediateDirectories: false)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(directory: dir.url)
    }
    #expect(failure?.kind == .io)
  }

  @Test func newerSchemaIsRefused() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let path = dir.url.appendingPathComponent(SQLiteVoteStore.fileName).path
    try await runPython(
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("PRAGMA user_version = 99")
      db.commit()
      """, arguments: [path])
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try SQLiteVoteStore(path: path)
    }
    #expect(failure?.kind == .incompatible)
    #expect(failure?.message.contains("newer") == true)
    #expect(failure?.message.contains("99") == true)
  }

  @Test func fullDatabaseFailsOnlyTheWriteThatDidNotFitAndKeepsNothingOfIt() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(
      directory: dir.url, options: .init(maximumPageCount: 22))  // 10: boards
    let long = String(repeating: "k", count: 60)
    var acknowledged: [String] = []
    var fullError: VoteStoreError?
    for index in 0..<2000 {
      let key = "\(index)-\(long)"
      do {
        _ = try await store.apply(
          CounterMutation(
            namespace: "ns", key: key, delta: 1, voter: "voter-\(index)-\(long)",
            createIfMissing: CounterCreation(namespace: "ns", key: key)))
        acknowledged.append(key)
      } catch {
        fullError = error
        #expect(try await store.record(namespace: "ns", key: key) == nil)
        break
      }
    }
    #expect(fullError?.kind == .full)
    #expect(acknowledged.count > 10)
    // Writes that fit still work: updates of existing rows need no new page.
    let bump = try await store.apply(
      CounterMutation(namespace: "ns", key: acknowledged[0], delta: 1))
    #expect(bump.record?.value == 2)
    let values = try await store.values(namespace: "ns", keys: acknowledged)
    #expect(values.count == acknowledged.count)
    await store.close()

    let reopened = try SQLiteVoteStore(directory: dir.url)
    let stats = try await reopened.statistics()
    #expect(stats.counters == Int64(acknowledged.count))
    #expect(stats.voters == Int64(acknowledged.count))
    await reopened.close()
  }

  @Test func concurrentWritesAroundAFullDatabaseAreEachAnsweredHonestly() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(
      directory: dir.url, options: .init(maximumPageCount: 20))  // 10: boards
    _ = try await store.create(CounterCreation(namespace: "ns", key: "existing"))
    let long = String(repeating: "z", count: 80)
    // Many creations race with increments of an existing key in the same groups.
    let results = await withTaskGroup(of: (String?, Bool).self) { group in
      for index in 0..<400 {
        group.addTask {
          let key = index.isMultiple(of: 2) ? "existing" : "\(index)-\(long)"
          do throws(VoteStoreError) {
            _ = try await store.apply(
              CounterMutation(
                namespace: "ns", key: key, delta: 1,
                createIfMissing: CounterCreation(namespace: "ns", key: key)))
            return (key == "existing" ? nil : key, true)
          } catch {
            #expect(error.kind == .full)
            return (key == "existing" ? nil : key, false)
          }
        }
      }
      return await group.reduce(into: [(String?, Bool)]()) { $0.append($1) }
    }
    let increments = results.filter { $0.0 == nil && $0.1 }.count
    let created: [String] = results.compactMap { key, ok in ok ? key : nil }
    let refused: [String] = results.compactMap { key, ok in ok ? nil : key }
    #expect(!refused.isEmpty)
    #expect(try await store.record(namespace: "ns", key: "existing")?.value == Int64(increments))
    let present = try await store.values(namespace: "ns", keys: created + refused)
    #expect(Set(present.keys) == Set(created))
    await store.close()
  }
}
