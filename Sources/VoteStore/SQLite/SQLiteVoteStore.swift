import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The embedded vote store: one SQLite database in WAL mode with `synchronous=FULL`.
///
/// Writes go to one dedicated writer thread that groups concurrent writes into one
/// transaction (group commit: one fsync for many votes) and answers each caller only after
/// the commit. Reads run on a few read connections, each on its own thread. No SQLite call
/// ever runs on Swift's cooperative thread pool.
///
/// Opening checks the database (`PRAGMA integrity_check` or `quick_check`) and refuses a
/// damaged file or one that is not a database with ``VoteStoreError/Kind/corrupt``.
/// The initializers block while they open and check the file: call them at start-up.
public final class SQLiteVoteStore: VoteStore {
  /// The database file.
  public let path: String
  private let writer: SQLiteWriter
  private let readers: ConnectionPool<SQLiteConnection>
  private let checkpointer: SQLiteCheckpointer
  private let health = WriteHealthTracker()
  /// Votes handed over while the writer has not begun the last hand-over join it.
  let gatherer = VoteGatherer()
  private let voterKey: VoterKey
  /// The counts in memory, with ``SQLiteVoteStoreOptions/memoryCache``.
  let cache: CounterCache?
  /// Held exclusively for as long as a store with a cache is open.
  private let serveLock: ServeLock?
  /// Without a cache: the shared lock, taken at the first write.
  let writeLock: WriteLockOnce?
  /// The options' ``SQLiteVoteStoreOptions/answerDeadlineMilliseconds``, which a board store
  /// sharing this one takes too.
  let answerDeadlineMilliseconds: Int?

  /// Opens (creating if needed) `votes.sqlite3` in `directory`, creating the directory too.
  ///
  /// Throws `.io` when the directory or file cannot be created or opened, `.corrupt` when
  /// the file is damaged or not a database, `.invalid` when it was written by a newer schema.
  public convenience init(
    directory: URL, options: SQLiteVoteStoreOptions = .init()
  ) throws(VoteStoreError) {
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true)
    } catch {
      throw VoteStoreError(
        .io, "cannot create the data directory \(directory.path): \(error.localizedDescription)")
    }
    try self.init(
      path: directory.appendingPathComponent(Self.fileName).path, options: options)
  }

  /// Opens (creating if needed) the database file at `path`. Errors as for
  /// ``init(directory:options:)``.
  public init(path: String, options: SQLiteVoteStoreOptions = .init()) throws(VoteStoreError) {
    self.path = path
    try SystemLibraries.requireSQLite()  // before the voter key file is made
    let timeout = Int32(clamping: options.busyTimeoutMilliseconds)
    try Self.createIfAbsent(path, busyTimeoutMilliseconds: timeout)
    if access(path, W_OK) != 0, errno == EACCES || errno == EROFS {
      // SQLite would open it read-only and fail every write: a server that answers reads and
      // refuses every vote, while it looks healthy to whatever started it.
      throw VoteStoreError(
        .io,
        "\(path) cannot be written (\(String(cString: strerror(errno)))): give the user "
          + "running roadmapctl write permission on it (and on its directory)")
    }
    try Self.refuseUnwritableDirectory(of: path)
    let writeConnection = try SQLiteConnection(
      path: path, create: false, busyTimeoutMilliseconds: timeout)
    do throws(VoteStoreError) {
      // Every refusal comes before the first write (WAL mode changes the file's header).
      try Self.check(writeConnection, options.startupCheck)
      try SQLiteSchema.refuseNewer(writeConnection)
      try Self.refuseForeign(writeConnection)
      // Locked (the data directory) before this open writes anything, the voter key file
      // included: refused here, a second server leaves the first one's files as they were.
      serveLock = options.memoryCache ? try ServeLock.exclusive(forDatabase: path) : nil
      let mode = try writeConnection.strings("PRAGMA journal_mode = WAL").first ?? ""
      guard mode.lowercased() == "wal" else {
        throw VoteStoreError(.io, "\(path): cannot use WAL mode (journal mode is \(mode))")
      }
      try writeConnection.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
      if let pages = options.maximumPageCount {
        _ = try writeConnection.integer("PRAGMA max_page_count = \(max(1, pages))")
      }
      voterKey = try Self.loadVoterKey(writeConnection)
      try SQLiteSchema.migrate(writeConnection, context: MigrationContext(voterKey: voterKey))
      try Self.checkVoterKey(voterKey, writeConnection)
    } catch {
      writeConnection.close()
      throw error
    }
    var readConnections: [SQLiteConnection] = []
    let checkpointConnection: SQLiteConnection
    do throws(VoteStoreError) {
      checkpointConnection = try SQLiteConnection(
        path: path, create: false, busyTimeoutMilliseconds: timeout)
      readConnections.append(checkpointConnection)
      for _ in 0..<max(1, options.readConnections) {
        let reader = try SQLiteConnection(
          path: path, create: false, busyTimeoutMilliseconds: timeout)
        readConnections.append(reader)
        try reader.execute("PRAGMA query_only = ON")
      }
    } catch {
      for reader in readConnections { reader.close() }
      writeConnection.close()
      throw error
    }
    readConnections.removeFirst()
    cache = options.memoryCache ? CounterCache(capacity: options.memoryCacheCapacity) : nil
    writeLock = options.memoryCache ? nil : WriteLockOnce(databasePath: path)
    checkpointer = SQLiteCheckpointer(connection: checkpointConnection)
    do throws(VoteStoreError) {
      try checkpointer.attach(to: writeConnection)
    } catch {
      // Without the hook, SQLite's own autocheckpoint (in the writer) stays on.
      try? writeConnection.execute("PRAGMA wal_autocheckpoint = 1000")
    }
    let checkpointer = self.checkpointer
    answerDeadlineMilliseconds = options.answerDeadlineMilliseconds
    writer = SQLiteWriter(
      name: "votes writer", connection: writeConnection, maximumBatchSize: options.maximumBatchSize,
      changes: cache.map(SQLiteCounterChanges.init),
      deadlineMilliseconds: options.answerDeadlineMilliseconds,
      afterCommit: { writer in checkpointer.writerCommitted(writer) })
    readers = ConnectionPool(name: "votes reader", connections: readConnections)
  }

  deinit {
    // A store released without close(): the threads finish queued work, then exit.
    writer.closeEventually()
    readers.closeEventually()
    checkpointer.closeEventually()
  }

  /// The database file name inside a data directory.
  public static let fileName = "votes.sqlite3"

  /// Creates a complete, current database at `path` when no file is there, and refuses an
  /// empty (0-byte) file there.
  ///
  /// The new database is built under a temporary name and linked into place only when
  /// complete (`link` never replaces a file), so `path` is always either absent or a whole
  /// vote store: a crash while creating it leaves no empty file that a later start would
  /// have to refuse.
  private static func createIfAbsent(
    _ path: String, busyTimeoutMilliseconds timeout: Int32
  ) throws(VoteStoreError) {
    var info = stat()
    if stat(path, &info) == 0 {
      if info.st_mode & S_IFMT == S_IFREG && info.st_size == 0 {
        throw VoteStoreError(
          .incompatible,
          "\(path) is an empty file (0 bytes), not a vote store; refusing to start on it, "
            + "since a store that lost its contents must not silently start over. Move it away, "
            + "then load a backup into the data directory ('roadmapctl restore FILE' for a "
            + "backup, 'roadmapctl votes import FILE' for a votes export); or delete it to start "
            + "a new, empty store."
        )
      }
      return
    }
    guard errno == ENOENT else { return }  // the open that follows reports it
    try refuseOrphanedWAL(of: path)
    let key: VoterKey
    let keyPath = VoterKeyFile.path(forDatabase: path)
    if FileManager.default.fileExists(atPath: keyPath) {
      key = try VoterKeyFile.load(keyPath)  // a key moved here before the first import
    } else {
      key = try VoterKeyFile.create(keyPath)
    }
    let temporary = path + ".creating-\(UUID().uuidString.prefix(8))"
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }
    let db = try SQLiteConnection(path: temporary, create: true, busyTimeoutMilliseconds: timeout)
    do throws(VoteStoreError) {
      try SQLiteSchema.migrate(db, context: MigrationContext(voterKey: key))
      let mode = try db.strings("PRAGMA journal_mode = WAL").first ?? ""
      guard mode.lowercased() == "wal" else {
        throw VoteStoreError(.io, "\(path): cannot use WAL mode (journal mode is \(mode))")
      }
    } catch {
      db.close()
      throw error
    }
    db.close()
    if link(temporary, path) != 0 && errno != EEXIST {
      throw VoteStoreError(
        .io, "cannot create the database \(path): \(String(cString: strerror(errno)))")
    }
    VoterKeyFile.syncDirectory(of: path)
  }

  /// Refuses a database whose directory this process cannot write while its write-ahead log
  /// does not exist yet: SQLite must create the log (and its index) there, and failed with
  /// "attempt to write a readonly database [1544] while preparing PRAGMA page_count", which
  /// names neither the directory nor what to do.
  private static func refuseUnwritableDirectory(of path: String) throws(VoteStoreError) {
    var info = stat()
    guard stat(path + "-wal", &info) != 0 else { return }
    let directory = (path as NSString).deletingLastPathComponent
    let place = directory.isEmpty ? "." : directory
    guard access(place, W_OK) != 0, errno == EACCES || errno == EROFS else { return }
    throw VoteStoreError(
      .io,
      "the data directory \(place) cannot be written (\(String(cString: strerror(errno)))), "
        + "and SQLite keeps the write-ahead log of \(path) beside it (\(path)-wal, "
        + "\(path)-shm): give the user running roadmapctl write permission on the directory")
  }

  /// Refuses to create a database at `path` beside a write-ahead log that holds something:
  /// the log of a database deleted or moved away without it (its newest votes may be only
  /// there). SQLite would replay its pages into the new database, which then reads as
  /// damaged, or as a mix of the two; the files are left as they are.
  private static func refuseOrphanedWAL(of path: String) throws(VoteStoreError) {
    var info = stat()
    guard stat(path + "-wal", &info) == 0, info.st_size > 0 else { return }
    throw VoteStoreError(
      .incompatible,
      "\(path)-wal (\(info.st_size) bytes) is there but \(path) is not: the database was "
        + "deleted or moved away without its write-ahead log, which may hold its newest "
        + "votes. Nothing was changed. Put the database back beside it (both files together), "
        + "or, to start a new, empty store, move \(path)-wal and \(path)-shm away.")
  }

  /// Refuses a SQLite database that is not a vote store (another program's, or one without
  /// tables), naming it; the file is left as it is.
  private static func refuseForeign(_ db: SQLiteConnection) throws(VoteStoreError) {
    let version = try db.integer("PRAGMA user_version") ?? 0
    let tables = Set(try db.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
    let ours: Set<String> = ["counters", "voters", "meta"]
    guard version < 1 || !ours.isSubset(of: tables) else { return }
    let found =
      tables.isEmpty
      ? "no tables" : "tables " + tables.sorted().prefix(8).joined(separator: ", ")
    throw VoteStoreError(
      .incompatible,
      "\(db.path) is a SQLite database but not a RoadmapBridge vote store (\(found); "
        + "user_version \(version)); refusing to use it. Point --data-dir at a directory of "
        + "its own, or move the file away.")
  }

  /// The file beside the database that holds its voter key (`votes.sqlite3-voter-key`).
  public var voterKeyPath: String { VoterKeyFile.path(forDatabase: path) }

  /// The fingerprint of the voter key (16 hex digits), as exports name it.
  public var voterKeyFingerprint: String { voterKey.fingerprint }

  /// Reads the key file, or creates it — unless the database already holds voter hashes,
  /// which a new key could never match (then the missing file is an error naming it).
  private static func loadVoterKey(_ db: SQLiteConnection) throws(VoteStoreError) -> VoterKey {
    let keyPath = VoterKeyFile.path(forDatabase: db.path)
    if FileManager.default.fileExists(atPath: keyPath) { return try VoterKeyFile.load(keyPath) }
    if try db.integer("PRAGMA user_version") ?? 0 >= 3 {
      let table = SQLiteCounterTable(db: db)
      let voters = try table.voterCount()
      if voters > 0 {
        throw VoteStoreError(
          .incompatible,
          "the voter key \(keyPath) is missing, and \(db.path) holds \(voters) voter hashes "
            + "made with key \(try table.recordedVoterKey() ?? "?"); without it every voter could "
            + "vote again. Restore the key file from the backup of this database and start again.")
      }
    }
    return try VoterKeyFile.create(keyPath)
  }

  /// Checks that the stored hashes were made with `key`; a store without voters takes the key
  /// it is given (that is how a key is moved to a new store, see docs/storage.md).
  private static func checkVoterKey(_ key: VoterKey, _ db: SQLiteConnection) throws(VoteStoreError)
  {
    let table = SQLiteCounterTable(db: db)
    let recorded = try table.recordedVoterKey()
    guard recorded != key.fingerprint else { return }
    let voters = try table.voterCount()
    guard voters == 0 else {
      throw VoteStoreError(
        .incompatible,
        "the voter key \(VoterKeyFile.path(forDatabase: db.path)) (fingerprint \(key.fingerprint)) "
          + "is not the key the \(voters) voter hashes in \(db.path) were made with "
          + "(\(recorded ?? "?")); restore the right key file and start again.")
    }
    try db.execute("BEGIN IMMEDIATE")
    do throws(VoteStoreError) {
      try table.recordVoterKey(key)
      try db.execute("COMMIT")
    } catch {
      if !db.isAutocommit { try? db.execute("ROLLBACK") }
      throw error
    }
  }

  private static func check(
    _ db: SQLiteConnection, _ check: SQLiteVoteStoreOptions.StartupCheck
  ) throws(VoteStoreError) {
    var full = check == .full
    if check == .automatic {
      let pages = try db.integer("PRAGMA page_count") ?? 0
      let pageSize = try db.integer("PRAGMA page_size") ?? 4096
      full = pages * pageSize <= 64 << 20
    }
    let problems: [String]
    do throws(VoteStoreError) {
      problems = try db.strings(full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
    } catch {
      guard error.kind == .corrupt else { throw error }
      throw VoteStoreError(
        .corrupt, "the vote database \(db.path) is damaged or not a database: \(error.message)")
    }
    guard problems == ["ok"] else {
      throw VoteStoreError(
        .corrupt,
        "the vote database \(db.path) is damaged: "
          + problems.prefix(5).joined(separator: "; "))
    }
  }

  // MARK: VoteStore

  /// The counter `key` in `namespace`, or nil when it does not exist.
  public func record(
    namespace: String, key: String
  ) async throws(VoteStoreError) -> CounterRecord? {
    guard let cache else { return try await readRecord(namespace: namespace, key: key) }
    switch cache.lookup(namespace: namespace, key: key) {
    case .found(let record): return record
    case .missing: return nil
    case .unknown(let ticket):
      let record = try await readRecord(namespace: namespace, key: key)
      cache.fill(namespace, key, record, ticket: ticket)
      return record
    }
  }

  private func readRecord(
    namespace: String, key: String
  ) async throws(VoteStoreError) -> CounterRecord? {
    try await readers.run { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).record(namespace: namespace, key: key)
    }
  }

  /// The counter as memory knows it, without waiting; nil without a memory cache or when
  /// memory does not know the key (then ask ``record(namespace:key:)``).
  public func cachedRecord(namespace: String, key: String) -> CachedCounter? {
    switch cache?.lookup(namespace: namespace, key: key) {
    case .found(let record): return .found(record)
    case .missing: return .missing
    case .unknown, nil: return nil
    }
  }

  /// The values of `keys` as memory knows them (missing keys absent), without waiting; nil
  /// without a memory cache or when memory does not know every key.
  public func cachedValues(namespace: String, keys: [String]) -> CounterValues? {
    cache?.values(namespace: namespace, keys: keys)
  }

  /// The values of `keys` in `namespace`, read from one snapshot; missing keys are absent.
  public func values(
    namespace: String, keys: [String]
  ) async throws(VoteStoreError) -> CounterValues {
    guard let cache else {
      return try await readers.run { db throws(VoteStoreError) in
        try Self.inReadTransaction(db) { () throws(VoteStoreError) in
          try SQLiteCounterTable(db: db).values(namespace: namespace, keys: keys)
        }
      }
    }
    if let values = cache.values(namespace: namespace, keys: keys) { return values }
    let ticket = cache.ticket()
    let rows = try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        let table = SQLiteCounterTable(db: db)
        var rows: [(String, String, CounterRecord?)] = []
        var seen = Set<ExactText>()
        for key in keys where seen.insert(ExactText(storing: key)).inserted {
          rows.append((namespace, key, try table.record(namespace: namespace, key: key)))
        }
        return CachedRows(rows: rows)
      }
    }
    cache.fill(rows.rows, ticket: ticket)
    var values = CounterValues()
    for (_, key, record) in rows.rows { if let record { values[key] = record.value } }
    return values
  }

  /// Creates a counter durably; nil (nothing changed) when it already exists.
  public func create(_ creation: CounterCreation) async throws(VoteStoreError) -> CounterRecord? {
    try CounterLimits.check(creation)
    return try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).insert(creation, now: currentMilliseconds())
    }
  }

  /// Applies one mutation in the next group commit; see ``CounterMutation`` for the rules.
  ///
  /// A voter's unvote on a counter already at zero removes the vote and reports `.atZero`.
  public func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult {
    if let creation = mutation.createIfMissing { try CounterLimits.check(creation) }
    var mutation = mutation
    mutation.voter = mutation.voter.map(voterKey.hash)
    return try await write { [mutation] db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).apply(mutation, now: currentMilliseconds())
    }
  }

  /// ``apply(_:)`` without suspending: the mutation joins the writer's next group commit and
  /// `completion` runs on the writer thread once it is durable (or failed).
  public func submit(
    _ mutation: CounterMutation,
    completion: @escaping @Sendable (Result<MutationResult, VoteStoreError>) -> Void
  ) {
    var mutation = mutation
    do throws(VoteStoreError) {
      if let creation = mutation.createIfMissing { try CounterLimits.check(creation) }
      try writeLock?.ensure()
    } catch {
      completion(.failure(error))
      return
    }
    mutation.voter = mutation.voter.map(voterKey.hash)
    let (health, checkpointer) = (self.health, self.checkpointer)
    writer.submit(
      { [mutation] db throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).apply(mutation, now: currentMilliseconds())
      },
      completion: { result in
        switch result {
        case .success: health.record(nil)
        case .failure(let error):
          health.record(error)
          if error.kind == .full { checkpointer.requestTruncate() }
        }
        completion(result)
      })
  }

  /// ``submit(_:completion:)`` for many mutations in one hand-over to the writer: they join
  /// the hand-overs before them that the writer has not begun yet (``VoteGatherer``), and run
  /// in the next group commit one counter at a time, each counter's votes of every such
  /// hand-over in their order (its anonymous increments with one read and one write when they
  /// all fit, else one savepoint per mutation, so a refused one is undone and answered alone;
  /// a creation past the limits is refused before the writer). `completion` runs once on the
  /// writer thread with every result, in the order of `mutations`, once all are durable (or
  /// failed).
  public func submitBatch(
    _ mutations: [CounterMutation],
    completion: @escaping @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void
  ) {
    guard !mutations.isEmpty else { return completion([]) }
    do throws(VoteStoreError) {
      try writeLock?.ensure()
    } catch {
      return completion(Array(repeating: .failure(error), count: mutations.count))
    }
    // Refused before the writer: a creation past the limits. The rest go on as given (the
    // array shared, not copied) but for their voter ids, hashed in place.
    var refused: [(Int, VoteStoreError)] = []
    for index in mutations.indices {
      // The bounds read in place (a vote's creation is within them); the check, with its
      // message, only for one that is not.
      guard let value = mutations[index].createIfMissing?.value,
        let lower = mutations[index].createIfMissing?.updateLowerBound,
        let upper = mutations[index].createIfMissing?.updateUpperBound,
        !(CounterLimits.contains(value) && CounterLimits.contains(lower)
          && CounterLimits.contains(upper))
      else { continue }
      do throws(VoteStoreError) {
        try CounterLimits.check(mutations[index].createIfMissing!)
      } catch {
        refused.append((index, error))
      }
    }
    var accepted = mutations
    if !refused.isEmpty {
      accepted.removeAll(keepingCapacity: true)
      var refusals = refused.makeIterator()
      var refusal = refusals.next()
      for index in mutations.indices {
        if let (at, _) = refusal, at == index {
          refusal = refusals.next()
        } else {
          accepted.append(mutations[index])
        }
      }
    }
    guard !accepted.isEmpty else {
      return completion(refused.map { .failure($0.1) })
    }
    for index in accepted.indices where accepted[index].voter != nil {
      accepted[index].voter = accepted[index].voter.map(voterKey.hash)
    }
    let (health, checkpointer) = (self.health, self.checkpointer)
    let finish: @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void = {
      [refused] results in
      var failure: VoteStoreError?
      var succeeded = false
      for result in results {
        switch result {
        case .success: succeeded = true
        case .failure(let error): failure = error
        }
      }
      if succeeded { health.record(nil) }
      if let failure {
        health.record(failure)
        if failure.kind == .full { checkpointer.requestTruncate() }
      }
      guard !refused.isEmpty else { return completion(results) }
      var all: [Result<MutationResult, VoteStoreError>] = []
      all.reserveCapacity(results.count + refused.count)
      var next = results.makeIterator()
      var refusals = refused.makeIterator()
      var refusal = refusals.next()
      for index in 0..<(results.count + refused.count) {
        if let (at, error) = refusal, at == index {
          all.append(.failure(error))
          refusal = refusals.next()
        } else if let result = next.next() {
          all.append(result)
        }
      }
      completion(all)
    }
    guard let gathering = gatherer.add(accepted, finish: finish) else { return }
    let gatherer = self.gatherer
    writer.submitBatch(
      count: 1,
      { db, _ throws(VoteStoreError) in
        let mutations = gatherer.seal(gathering)
        return try SQLiteCounterTable(db: db).applyGathered(
          mutations, units: Self.counterUnits(mutations), now: currentMilliseconds())
      },
      completion: { results in
        _ = gatherer.seal(gathering)  // answered without running (a closed store) too
        gathering.answer(results.first ?? .failure(.closed))
      })
  }

  /// The batch's units for the writer, one per counter: the indices of its mutations in their
  /// order, the units in the order of their first mutation (see
  /// `SQLiteCounterTable.applyInOrder`).
  ///
  /// A batch names one or a few counters (a round of votes): those are found by comparing
  /// names with the units so far; past ``linearUnits`` counters, through a table.
  static func counterUnits(_ mutations: [CounterMutation]) -> [[Int]] {
    // First each mutation's unit, found among the units' first mutations (`heads`).
    var heads: [Int] = []
    var unitOf = [Int](repeating: 0, count: mutations.count)
    var table: [CounterName: Int] = [:]
    for index in mutations.indices {
      if heads.count <= linearUnits {
        if let unit = heads.firstIndex(where: {
          mutations[$0].key == mutations[index].key
            && mutations[$0].namespace == mutations[index].namespace
        }) {
          unitOf[index] = unit
          continue
        }
        guard heads.count == linearUnits else {
          unitOf[index] = heads.count
          heads.append(index)
          continue
        }
        for (unit, head) in heads.enumerated() {
          table[CounterName(namespace: mutations[head].namespace, key: mutations[head].key)] = unit
        }
      }
      let name = CounterName(namespace: mutations[index].namespace, key: mutations[index].key)
      if let unit = table[name] {
        unitOf[index] = unit
      } else {
        table[name] = heads.count
        unitOf[index] = heads.count
        heads.append(index)
      }
    }
    guard heads.count > 1 else { return heads.isEmpty ? [] : [Array(mutations.indices)] }
    var units = [[Int]](repeating: [], count: heads.count)
    for index in mutations.indices { units[unitOf[index]].append(index) }
    return units
  }

  /// Most counters a batch's units are looked up among one by one (see ``counterUnits(_:)``).
  static let linearUnits = 8

  /// Sets a counter (clamped at zero); `old` is its value before, or its creation value when
  /// this call created it. Nil for a missing counter without `createIfMissing`.
  public func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?
  ) async throws(VoteStoreError) -> (old: Int64, record: CounterRecord)? {
    try CounterLimits.check(value: value, "the value")
    if let createIfMissing { try CounterLimits.check(createIfMissing) }
    let result = try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).set(
        namespace: namespace, key: key, value: value, createIfMissing: createIfMissing,
        now: currentMilliseconds()
      ).map { SetResult(old: $0.old, record: $0.record) }
    }
    return result.map { ($0.old, $0.record) }
  }

  /// Counters, applied updates and voter records, from one snapshot.
  public func statistics() async throws(VoteStoreError) -> StoreStatistics {
    try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).statistics()
      }
    }
  }

  /// How many counters the store holds (one `count(*)`, not ``statistics()``'s other totals).
  public func counterCount() async throws(VoteStoreError) -> Int64 {
    try await readers.run { db throws(VoteStoreError) in
      try db.statement("SELECT count(*) FROM counters").firstRow { $0.int64(0) } ?? 0
    }
  }

  /// Every counter and its voters, from one snapshot.
  public func exportAll() async throws(VoteStoreError) -> VoteExport {
    var export = try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).exportAll()
      }
    }
    export.version = VoteExport.currentVersion
    export.voterKey = voterKey.fingerprint
    return export
  }

  /// Streams every counter and its voters as export JSON, from one snapshot, in pieces.
  public func exportAll(
    to write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(VoteStoreError) -> ExportSummary {
    let fingerprint = voterKey.fingerprint
    return try await readers.run { db throws(VoteStoreError) in
      try Self.inReadTransaction(db) { () throws(VoteStoreError) in
        var writer = ExportJSONWriter(sink: ExportJSONWriter.forwarding(write))
        try SQLiteCounterTable(db: db).export(into: &writer)
        return try writer.finish(voterKey: fingerprint)
      }
    }
  }

  /// Loads an export in one transaction (all or nothing). Invalid exports throw `.invalid`.
  public func importAll(
    _ export: VoteExport, replace: Bool
  ) async throws(VoteStoreError) -> ImportSummary {
    try export.validate()
    let hashed = try export.hashingVoters(with: voterKey)
    return try await write { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).importAll(hashed, replace: replace)
    }
  }

  /// Loads a backup's counters and boards in one group commit (see the protocol).
  public func restoreAll(votes export: VoteExport, boards: BoardBackup) async throws(VoteStoreError)
    -> ImportSummary
  {
    let restore = try PreparedRestore(votes: export, boards: boards, voterKey: voterKey)
    return try await write { db throws(VoteStoreError) in
      try restore.write(on: db) { votes throws(VoteStoreError) in
        try SQLiteCounterTable(db: db).importAll(votes, replace: false)
      }
    }
  }

  /// Loads a checked export file in one transaction (all or nothing), reading its counters
  /// from the file one at a time inside it.
  public func importAll(
    _ export: CheckedVoteExport, replace: Bool
  ) async throws(VoteStoreError) -> ImportSummary {
    let hashing = try export.voterHashing(with: voterKey)
    return try await write { db throws(VoteStoreError) in
      let table = SQLiteCounterTable(db: db)
      var summary = ImportSummary(imported: 0, skipped: 0)
      try export.forEachCounter { counter throws(VoteStoreError) in
        try table.importCounter(hashing(counter), replace: replace, into: &summary)
      }
      return summary
    }
  }

  /// Loads a backup whose counters are a checked export file in one group commit, reading
  /// the counters from the file one at a time inside it (see the protocol).
  public func restoreAll(
    votes export: CheckedVoteExport, boards: BoardBackup
  ) async throws(VoteStoreError) -> ImportSummary {
    let hashing = try export.voterHashing(with: voterKey)
    let kinds = try boards.checkedKinds()
    let voterKey = voterKey
    return try await write { db throws(VoteStoreError) in
      let table = SQLiteCounterTable(db: db)
      var summary = ImportSummary(imported: 0, skipped: 0)
      try export.forEachCounter { counter throws(VoteStoreError) in
        try table.importCounter(hashing(counter), replace: false, into: &summary)
      }
      _ = try boards.restoreRows(into: BoardTables(db: db, voterKey: voterKey), kinds: kinds)
      return summary
    }
  }

  /// Reads through a read connection, writes a probe row through the writer (a real
  /// commit), and throws the last write failure while writes are failing.
  public func checkHealth() async throws(VoteStoreError) {
    // A writer stuck on a stalled disk is said at once, not after a probe's own deadline.
    if let stalled = writer.stalled {
      health.record(stalled)
      throw stalled
    }
    _ = try await readers.run { db throws(VoteStoreError) in
      // Said as what it is, not as the disk I/O error a read of a deleted file may give.
      if db.fileHasMoved { throw db.movedFileError }
      return try db.statement("SELECT value FROM meta WHERE name = 'schema_version'")
        .firstRow { $0.int64(0) }
    }
    // The probe's success does not clear a failure of real writes: on a full disk an update
    // of one row may still fit where every new counter fails.
    do throws(VoteStoreError) {
      try await writer.write { db throws(VoteStoreError) in
        try db.statement(
          """
          INSERT INTO meta (name, value) VALUES ('health_probe', ?1)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value
          """
        ).run([.integer(currentMilliseconds())])
      }
    } catch {
      health.record(error)
      throw error
    }
    try health.throwIfFailing()
  }

  /// How recent writes went (see ``StoreWriteHealth``).
  public func writeHealth() -> StoreWriteHealth { health.health() }

  /// Runs `work` in the writer's next group commit and records its outcome.
  func write<T>(
    _ work: @escaping (SQLiteConnection) throws(VoteStoreError) -> T
  ) async throws(VoteStoreError) -> T {
    try writeLock?.ensure()
    do throws(VoteStoreError) {
      return try await health.tracking { () async throws(VoteStoreError) -> T in
        try await writer.write(work)
      }
    } catch {
      // A full disk: empty the WAL at once, so the space it holds is free for the next write.
      if error.kind == .full { checkpointer.requestTruncate() }
      throw error
    }
  }

  /// How many checkpoints of each kind ran since the store opened.
  var checkpoints: CheckpointCounts { checkpointer.checkpoints }

  /// Commits queued writes, finishes queued reads, and closes every connection.
  public func close() async {
    cache?.close()
    await writer.close()
    await readers.close()
    await checkpointer.close()
    serveLock?.release()
    writeLock?.release()
  }

  private static func inReadTransaction<T>(
    _ db: SQLiteConnection, _ body: () throws(VoteStoreError) -> T
  ) throws(VoteStoreError) -> T {
    try db.statement("BEGIN").run()
    defer { try? db.statement("COMMIT").run() }
    return try body()
  }

  /// One page of a namespace's counters by key (see VoteStore+Paging.swift).
  public func counters(namespace: String, after: String, limit: Int) async throws(VoteStoreError)
    -> [CounterRecord]
  {
    try await readers.run { db throws(VoteStoreError) in
      try SQLiteCounterTable(db: db).page(namespace, after, limit)
    }
  }
}

/// Rows read for the cache, in a form that can cross from a reader thread.
private struct CachedRows: @unchecked Sendable {
  var rows: [(String, String, CounterRecord?)]
}

/// A `set` result in a form that can cross from the writer thread.
private struct SetResult {
  var old: Int64
  var record: CounterRecord
}

/// A counter's name, as a key.
private struct CounterName: Hashable {
  var namespace: String
  var key: String
}
