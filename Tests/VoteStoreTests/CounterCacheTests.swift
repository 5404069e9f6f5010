import Foundation
import Testing

@testable import VoteStore

/// The memory cache of a SQLite store (``SQLiteVoteStoreOptions/memoryCache``): it never shows
/// a count older than an acknowledged write, whichever writer made it, and it keeps other
/// processes' stores from writing under it. The whole protocol suite also runs against it
/// (``StoreKind/sqliteCached``).
@Suite struct CounterCacheTests {
  static let ns = "app.example"

  /// A cached store and a plain reader on the same file (reads take no lock).
  private func withCachedStore(
    capacity: Int = 250_000,
    _ body: (SQLiteVoteStore, SQLiteVoteStore, TemporaryDirectory) async throws -> Void
  ) async throws {
    let directory = try TemporaryDirectory("cache")
    defer { directory.remove() }
    let store = try SQLiteVoteStore(
      directory: directory.url,
      options: SQLiteVoteStoreOptions(memoryCache: true, memoryCacheCapacity: capacity))
    let plain = try SQLiteVoteStore(directory: directory.url)
    do {
      try await body(store, plain, directory)
    } catch {
      await plain.close()
      await store.close()
      throw error
    }
    await plain.close()
    await store.close()
  }

  /// Memory, the cached store's answer and the database (through the plain store) agree.
  private func expectAgreement(
    _ store: SQLiteVoteStore, _ plain: SQLiteVoteStore, _ key: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let database = try await plain.record(namespace: Self.ns, key: key)
    // Memory may not know the key (it was emptied), but what it knows is the database's.
    if let memory = store.cachedRecord(namespace: Self.ns, key: key) {
      #expect(
        memory == (database.map(CachedCounter.found) ?? .missing), "memory of \(key)",
        sourceLocation: sourceLocation)
    }
    #expect(
      try await store.record(namespace: Self.ns, key: key) == database,
      sourceLocation: sourceLocation)
  }

  @Test func memoryKnowsOnlyWhatWasReadOrWritten() async throws {
    try await withCachedStore { store, _, _ in
      #expect(store.cachedRecord(namespace: Self.ns, key: "key1") == nil)
      #expect(try await store.record(namespace: Self.ns, key: "key1") == nil)
      #expect(store.cachedRecord(namespace: Self.ns, key: "key1") == .missing)
      let made = try #require(
        try await store.create(CounterCreation(namespace: Self.ns, key: "key1")))
      #expect(store.cachedRecord(namespace: Self.ns, key: "key1") == .found(made))
      // A store without the option knows nothing.
      let plainDirectory = try TemporaryDirectory("plain")
      defer { plainDirectory.remove() }
      let plain = try SQLiteVoteStore(directory: plainDirectory.url)
      _ = try await plain.record(namespace: Self.ns, key: "key1")
      #expect(plain.cachedRecord(namespace: Self.ns, key: "key1") == nil)
      await plain.close()
    }
  }

  /// Every kind of write, each followed at once by a read: memory shows the write the moment
  /// it is acknowledged.
  @Test func aReadAfterEveryKindOfAcknowledgedWriteSeesIt() async throws {
    try await withCachedStore { store, plain, directory in
      let keys = ["key1", "key2", "key3"]
      for key in keys { _ = try await store.record(namespace: Self.ns, key: key) }
      let writes: [(String, String, @Sendable (SQLiteVoteStore) async throws -> Void)] = [
        (
          "create", "key1",
          { _ = try await $0.create(CounterCreation(namespace: Self.ns, key: "key1")) }
        ),
        (
          "anonymous hit", "key1",
          {
            _ = try await $0.apply(CounterMutation(namespace: Self.ns, key: "key1", delta: 1))
          }
        ),
        (
          "hit creating the key", "key2",
          {
            _ = try await $0.apply(
              CounterMutation(
                namespace: Self.ns, key: "key2", delta: 1, voter: "alice",
                createIfMissing: CounterCreation(namespace: Self.ns, key: "key2")))
          }
        ),
        (
          "unvote", "key2",
          {
            _ = try await $0.apply(
              CounterMutation(namespace: Self.ns, key: "key2", delta: -1, voter: "alice"))
          }
        ),
        (
          "set", "key1",
          { _ = try await $0.set(namespace: Self.ns, key: "key1", value: 41, createIfMissing: nil) }
        ),
        (
          "set creating the key", "key3",
          {
            _ = try await $0.set(
              namespace: Self.ns, key: "key3", value: 7,
              createIfMissing: CounterCreation(namespace: Self.ns, key: "key3"))
          }
        ),
        (
          "import replacing", "key1",
          {
            var export = try await $0.exportAll()
            export.counters[0].record.value = 99
            _ = try await $0.importAll(export, replace: true)
          }
        ),
      ]
      for (name, key, write) in writes {
        let before = store.cachedRecord(namespace: Self.ns, key: key)
        try await write(store)
        #expect(store.cachedRecord(namespace: Self.ns, key: key) != before, "\(name)")
        try await expectAgreement(store, plain, key)
      }
      // The board's writer writes the features' counters too (imported votes).
      let board = try SQLiteBoardStore(sharing: store)
      try await board.write { tables in
        _ = try tables.setAnonymousVotes(Self.ns, key: "key3", count: 12, now: 1)
      }
      guard case .found(let published)? = store.cachedRecord(namespace: Self.ns, key: "key3") else {
        Issue.record("the board's write did not reach memory")
        return
      }
      #expect(published.value == 12)
      try await expectAgreement(store, plain, "key3")
      await board.close()
      _ = directory
    }
  }

  /// A transaction of more rows than memory follows one by one (a large import) empties it;
  /// every later read goes to the database and is right.
  @Test func aLargeImportEmptiesMemoryAndReadsStayRight() async throws {
    try await withCachedStore { store, plain, _ in
      _ = try await store.apply(
        CounterMutation(
          namespace: Self.ns, key: "key0", delta: 1,
          createIfMissing: CounterCreation(namespace: Self.ns, key: "key0")))
      _ = try await store.record(namespace: Self.ns, key: "key0")
      let count = SQLiteCounterChanges.maximumRows + 10
      let export = VoteExport(
        counters: (0..<count).map { index in
          VoteExport.Counter(
            record: CounterRecord(
              id: Int64(index + 1), namespace: Self.ns, key: "key\(index)", value: Int64(index) + 5,
              enableReset: false, updateLowerBound: -1, updateUpperBound: 1, createdAt: 0,
              updatedAt: 0),
            voters: [])
        })
      _ = try await store.importAll(export, replace: true)
      #expect(store.cachedRecord(namespace: Self.ns, key: "key0") == nil)
      for index in [0, 1, count - 1] { try await expectAgreement(store, plain, "key\(index)") }
      #expect(
        try await store.values(namespace: Self.ns, keys: ["key0", "key1", "nope"]) == [
          "key0": 5, "key1": 6,
        ])
      #expect(
        try await store.values(namespace: Self.ns, keys: ["key0", "key1", "nope"]) == [
          "key0": 5, "key1": 6,
        ])
    }
  }

  /// Many writers and readers at once on a few keys: no read ever shows less than a write
  /// that was acknowledged before the read began, and no reader sees a count go back.
  @Test func concurrentReadsNeverFallBehindAcknowledgedWrites() async throws {
    try await withCachedStore(capacity: 3) { store, plain, _ in
      let keys = (0..<5).map { "hot\($0)" }
      let acknowledged = AcknowledgedCounts()
      try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<6 {
          group.addTask {
            for step in 0..<60 {
              let key = keys[(writer + step) % keys.count]
              let result = try await store.apply(
                CounterMutation(
                  namespace: Self.ns, key: key, delta: 1,
                  createIfMissing: CounterCreation(namespace: Self.ns, key: key)))
              acknowledged.raise(key, to: result.record?.value ?? 0)
            }
          }
        }
        for reader in 0..<6 {
          group.addTask {
            var last: [String: Int64] = [:]
            for step in 0..<300 {
              let key = keys[(reader + step) % keys.count]
              let floor = acknowledged.value(key)
              let seen: Int64
              if step % 3 == 0 {
                seen = try await store.values(namespace: Self.ns, keys: [key])[key] ?? 0
              } else {
                seen = try await store.record(namespace: Self.ns, key: key)?.value ?? 0
              }
              #expect(seen >= floor, "\(key): read \(seen) after \(floor) was acknowledged")
              #expect(seen >= last[key, default: 0], "\(key) went back")
              last[key] = seen
            }
          }
        }
        try await group.waitForAll()
      }
      var total: Int64 = 0
      for key in keys {
        try await expectAgreement(store, plain, key)
        total += try await plain.record(namespace: Self.ns, key: key)?.value ?? 0
      }
      #expect(total == 360)
    }
  }

  /// The cache's own rules, step by step: a fill never lands on a newer publication, and a
  /// drop turns away the fills in flight.
  @Test func aFillNeverReplacesANewerPublication() {
    let cache = CounterCache(capacity: 10)
    func record(_ value: Int64) -> CounterRecord {
      CounterRecord(
        id: 1, namespace: Self.ns, key: "key", value: value, enableReset: false,
        updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0)
    }
    guard case .unknown(let ticket) = cache.lookup(namespace: Self.ns, key: "key") else {
      Issue.record("an empty cache knew the key")
      return
    }
    cache.publish([record(2)])  // a commit published after the reader's snapshot began
    cache.fill(Self.ns, "key", record(1), ticket: ticket)  // the reader's older row
    #expect(cache.lookup(namespace: Self.ns, key: "key").found?.value == 2)

    cache.dropAll()
    guard case .unknown(let second) = cache.lookup(namespace: Self.ns, key: "key") else {
      Issue.record("a dropped cache knew the key")
      return
    }
    cache.dropAll()  // e.g. a delete it cannot follow row by row
    cache.fill(Self.ns, "key", record(1), ticket: second)
    #expect(cache.lookup(namespace: Self.ns, key: "key").isUnknown)

    // A fill past the capacity empties the cache and stops.
    guard case .unknown(let third) = cache.lookup(namespace: Self.ns, key: "xkey") else { return }
    let rows: [(String, String, CounterRecord?)] = (0..<15).map { (Self.ns, "xkey\($0)", nil) }
    cache.fill(rows, ticket: third)
    #expect(cache.statistics.entries < 10)
  }

  /// The key looked up last is answered without the table, and never after the entries
  /// changed: a publication, a fill, a drop or the close each make the next lookup see them.
  @Test func theLastLookupIsNeverStaleAfterAChange() {
    let cache = CounterCache(capacity: 10)
    func record(_ key: String, _ value: Int64) -> CounterRecord {
      CounterRecord(
        id: 1, namespace: Self.ns, key: key, value: value, enableReset: false,
        updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0)
    }
    cache.publish([record("key", 1), record("other", 7)])
    #expect(cache.lookup(namespace: Self.ns, key: "key").found?.value == 1)
    #expect(cache.lookup(namespace: Self.ns, key: "key").found?.value == 1)
    // Same key, other namespace; same namespace, other key: not the last one.
    #expect(cache.lookup(namespace: "other.example", key: "key").isUnknown)
    #expect(cache.lookup(namespace: Self.ns, key: "other").found?.value == 7)
    #expect(cache.lookup(namespace: Self.ns, key: "key").found?.value == 1)
    cache.publish([record("key", 2)])
    #expect(cache.lookup(namespace: Self.ns, key: "key").found?.value == 2)
    // A missing key is remembered as missing, and a publication of it replaces that.
    guard case .unknown(let ticket) = cache.lookup(namespace: Self.ns, key: "new") else {
      Issue.record("memory knew a key nobody read")
      return
    }
    cache.fill(Self.ns, "new", nil, ticket: ticket)
    #expect(cache.lookup(namespace: Self.ns, key: "new").isMissing)
    #expect(cache.lookup(namespace: Self.ns, key: "new").isMissing)
    cache.publish([record("new", 5)])
    #expect(cache.lookup(namespace: Self.ns, key: "new").found?.value == 5)
    cache.dropAll()
    #expect(cache.lookup(namespace: Self.ns, key: "new").isUnknown)
    cache.publish([record("new", 6)])
    #expect(cache.lookup(namespace: Self.ns, key: "new").found?.value == 6)
    cache.close()
    #expect(cache.lookup(namespace: Self.ns, key: "new").isUnknown)
    let statistics = cache.statistics
    #expect(statistics.hits == 9 && statistics.misses == 4)
  }

  @Test func aSecondCachedStoreOnTheFileIsRefused() async throws {
    try await withCachedStore { _, _, directory in
      #expect {
        _ = try SQLiteVoteStore(
          directory: directory.url, options: SQLiteVoteStoreOptions(memoryCache: true))
      } throws: { error in
        let error = error as? VoteStoreError
        return error?.kind == .busy && error?.message.contains("another process") == true
      }
    }
  }

  /// Another store (another process's `votes import`) may read but not write while a cached
  /// store has the file; once it closes, it may.
  @Test func anotherStoreMayReadButNotWriteUnderACachedStore() async throws {
    let directory = try TemporaryDirectory("cache-lock")
    defer { directory.remove() }
    let cached = try SQLiteVoteStore(
      directory: directory.url, options: SQLiteVoteStoreOptions(memoryCache: true))
    _ = try await cached.create(CounterCreation(namespace: Self.ns, key: "key", value: 3))
    let other = try SQLiteVoteStore(directory: directory.url)
    #expect(try await other.record(namespace: Self.ns, key: "key")?.value == 3)
    await #expect {
      _ = try await other.apply(CounterMutation(namespace: Self.ns, key: "key", delta: 1))
    } throws: { error in
      let error = error as? VoteStoreError
      return error?.kind == .busy && error?.message.contains("roadmapctl serve") == true
    }
    let board = try SQLiteBoardStore(path: cached.path)
    await #expect(throws: VoteStoreError.self) {
      try await board.write { _ = try $0.setAnonymousVotes(Self.ns, key: "key", count: 1, now: 1) }
    }
    await board.close()
    #expect(try await cached.record(namespace: Self.ns, key: "key")?.value == 3)
    await cached.close()
    let result = try await other.apply(CounterMutation(namespace: Self.ns, key: "key", delta: 1))
    #expect(result.record?.value == 4)
    // And now the writer holds its shared lock: a cached store cannot start until it closes.
    #expect(throws: VoteStoreError.self) {
      _ = try SQLiteVoteStore(
        directory: directory.url, options: SQLiteVoteStoreOptions(memoryCache: true))
    }
    await other.close()
    let reopened = try SQLiteVoteStore(
      directory: directory.url, options: SQLiteVoteStoreOptions(memoryCache: true))
    #expect(try await reopened.record(namespace: Self.ns, key: "key")?.value == 4)
    await reopened.close()
  }
}

/// The highest value acknowledged per key, shared by the test's writer and reader tasks.
private final class AcknowledgedCounts: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String: Int64] = [:]

  func raise(_ key: String, to value: Int64) {
    lock.withLock { values[key] = max(values[key, default: 0], value) }
  }

  func value(_ key: String) -> Int64 { lock.withLock { values[key, default: 0] } }
}

extension CounterCache.Lookup {
  fileprivate var found: CounterRecord? {
    if case .found(let record) = self { return record }
    return nil
  }

  fileprivate var isUnknown: Bool {
    if case .unknown = self { return true }
    return false
  }

  fileprivate var isMissing: Bool {
    if case .missing = self { return true }
    return false
  }
}
