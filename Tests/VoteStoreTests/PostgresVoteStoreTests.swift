import Foundation
import Testing
import VoteStore

/// What only the PostgreSQL store has: several instances on one database, lost connections.
@Suite struct PostgresVoteStoreTests {
  @Test func severalInstancesOnOneDatabaseLoseNothingAndCountEachVoterOnce() async throws {
    let handle = try await StoreHandle.make(.postgres)
    // Twelve connections queue on one row's lock: on a loaded machine one statement can wait
    // past the default 5 s (a `busy` answer, which a server turns into a 503). What this test
    // is about is what the commits keep, so its statements may wait longer.
    let patient = PostgresTimeouts(statementMilliseconds: 60_000, clientMilliseconds: 70_000)
    let stores = try (0..<3).map { _ in
      try PostgresVoteStore(
        connectionString: try #require(handle.connectionString), poolSize: 4, timeouts: patient)
    }
    let create = CounterCreation(namespace: "ns", key: "hot")
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<48 {
        let store = stores[task % stores.count]
        group.addTask {
          for _ in 0..<10 {
            _ = try await store.apply(
              CounterMutation(
                namespace: "ns", key: "hot", delta: 1, createIfMissing: create))
          }
          _ = try await store.apply(
            CounterMutation(
              namespace: "ns", key: "voted", delta: 1, voter: "the-same-voter",
              createIfMissing: CounterCreation(namespace: "ns", key: "voted")))
        }
      }
      try await group.waitForAll()
    }
    #expect(try await stores[0].record(namespace: "ns", key: "hot")?.value == 480)
    #expect(try await stores[1].record(namespace: "ns", key: "voted")?.value == 1)
    #expect(try await stores[2].statistics().updates == 481)
    for store in stores { await store.close() }
    await handle.cleanUp()
  }

  /// Bug (audit of `serve`, defect 4): after a database restart each pooled connection,
  /// dead since the restart but idle, failed the next write on it with `.io` (a 503, a vote
  /// lost), minutes later too. A connection the server ended while idle is now found before
  /// anything is sent and replaced, and a write lost at its `BEGIN` runs once more on a fresh
  /// connection; so every write after the restart succeeds, the single-statement `create`
  /// included.
  @Test func writesOnConnectionsTheServerEndedWhileIdleAreMadeOnFreshOnes() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    let url = try #require(handle.connectionString)
    let store = try PostgresVoteStore(connectionString: url, poolSize: 2)
    let board = try PostgresBoardStore(connectionString: url, poolSize: 2)
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))
    for round in 0..<3 {
      try await terminateConnections(database)
      #expect(
        try await store.create(CounterCreation(namespace: "ns", key: "c\(round)"))?.value == 0)
      try await terminateConnections(database)
      // More calls at once than connections: every dead one is used.
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<4 {
          group.addTask {
            _ = try await store.apply(
              CounterMutation(namespace: "ns", key: "k", delta: 1, voter: "v\(round)-\(index)"))
          }
          group.addTask {
            try await board.write { try $0.reserveID("p", "x", atLeast: Int64(index)) }
          }
        }
        try await group.waitForAll()
      }
    }
    #expect(try await store.record(namespace: "ns", key: "k")?.value == 12)
    #expect(store.writeHealth().isFailing == false)

    // A read on a dead connection is retried on a fresh one.
    try await terminateConnections(database)
    #expect(try await store.record(namespace: "ns", key: "k")?.value == 12)
    try await store.checkHealth()
    await board.close()
    await store.close()
    await handle.cleanUp()
  }

  /// Bug: after a database restart, each of the board store's pooled connections failed one
  /// read (a 503 for a board page or `/roadmap/P.json`) while the counter reads retried. A
  /// board read on a dead connection is now retried on a fresh one too.
  @Test func aBoardReadOnALostConnectionIsRetriedOnAFreshOne() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    let board = try PostgresBoardStore(
      connectionString: try #require(handle.connectionString), poolSize: 2)
    _ = try await board.write { try $0.projects() }
    for round in 0..<3 {
      try await terminateConnections(database)
      for _ in 0..<4 {
        #expect(try await board.read { try $0.projects() } == [], "round \(round)")
      }
    }
    await board.close()
    await handle.cleanUp()
  }

  @Test func aConnectionURLWorksAsWellAsKeywordValuePairs() async throws {
    let handle = try await StoreHandle.make(.postgres)
    var url = try #require(handle.connectionString)
    if !url.hasPrefix("postgres") {
      // host=/tmp/dir port=5432 user=postgres dbname=t_x → postgresql://postgres@:5432/t_x?host=…
      var pairs: [String: String] = [:]
      for pair in url.split(separator: " ") {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { pairs[parts[0]] = parts[1] }
      }
      url =
        "postgresql://\(pairs["user"] ?? "postgres")@:\(pairs["port"] ?? "5432")/"
        + "\(pairs["dbname"] ?? "")?host=\(pairs["host"] ?? "")"
    }
    let store = try PostgresVoteStore(connectionString: url, poolSize: 1)
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k", value: 3))
    #expect(try await store.record(namespace: "ns", key: "k")?.value == 3)
    await store.close()
    await handle.cleanUp()
  }

  @Test func unreachableServerIsAnIOErrorAtInit() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try PostgresVoteStore(
        connectionString: "host=\(dir.url.path) port=5432 user=postgres dbname=nothing",
        poolSize: 1)
    }
    #expect(failure?.kind == .io)
    // libpq says it on two lines ("…\n\tIs the server running locally…"); serve's log keeps
    // one line per event.
    #expect(failure?.message.contains("Is the server running") == true, "\(failure!)")
    #expect(failure?.message.contains(where: \.isNewline) == false, "\(failure!)")
    #expect(failure?.message.contains("\t") == false, "\(failure!)")
  }

  @Test func newerSchemaIsRefused() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    let store = try handle.open()
    await store.close()
    _ = try await TestPostgres.shared.administer(
      database: database, "UPDATE meta SET value = 99 WHERE name = 'schema_version'")
    let connectionString = try #require(handle.connectionString)
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try PostgresVoteStore(connectionString: connectionString)
    }
    #expect(failure?.kind == .incompatible)
    #expect(failure?.message.contains("newer") == true)
    await handle.cleanUp()
  }

  @Test func textWithANulCharacterIsInvalidNotTruncated() async throws {
    try await StoreKind.postgres.withStore { store, _ in
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(
          CounterMutation(
            namespace: "ns", key: "k\u{0}x", delta: 1,
            createIfMissing: CounterCreation(namespace: "ns", key: "k\u{0}x")))
      }
      #expect(failure?.kind == .invalid)
      let counters = try await store.statistics().counters
      #expect(counters == 0)
    }
  }

  /// Kills every backend connected to `database` and waits until they are gone.
  private func terminateConnections(_ database: String) async throws {
    _ = try await TestPostgres.shared.administer(
      database: database,
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
      """)
    for _ in 0..<200 {
      let left = try await TestPostgres.shared.administer(
        database: database,
        """
        SELECT count(*) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
        """)
      if left.trimmingCharacters(in: .whitespacesAndNewlines) == "0" { return }
      try await Task.sleep(for: .milliseconds(20))
    }
  }
}
