import Foundation
import Testing
import VoteStore

/// The store says when its writes are failing, so `/healthz` can answer 503 while they do.
@Suite struct WriteHealthTests {
  @Test func aFullDatabaseMakesWritesFailingUntilAWriteSucceeds() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    // 10 of the 22 pages are the board tables (schema step 3).
    let store = try SQLiteVoteStore(directory: dir.url, options: .init(maximumPageCount: 22))
    _ = try await store.create(CounterCreation(namespace: "ns", key: "existing"))
    try await store.checkHealth()
    #expect(store.writeHealth().isFailing == false)
    #expect(store.writeHealth().lastSuccessAt != nil)

    let long = String(repeating: "k", count: 60)
    var full: VoteStoreError?
    for index in 0..<2000 where full == nil {
      full = await storeError { () throws(VoteStoreError) in
        _ = try await store.create(CounterCreation(namespace: "ns", key: "\(index)-\(long)"))
      }
    }
    #expect(full?.kind == .full)
    let health = store.writeHealth()
    #expect(health.isFailing)
    #expect(health.lastFailure?.kind == .full)
    #expect(health.failures == 1)
    // The health check's own probe (an update of one row) still fits, but the check fails
    // because real writes are failing.
    let check = await storeError { () throws(VoteStoreError) in try await store.checkHealth() }
    #expect(check?.kind == .full)
    #expect(check?.message.hasPrefix("writes are failing") == true)

    // A write that fits clears it.
    _ = try await store.apply(CounterMutation(namespace: "ns", key: "existing", delta: 1))
    #expect(store.writeHealth().isFailing == false)
    try await store.checkHealth()
    await store.close()
  }

  @Test func aClosedStoreIsNotAWriteFailure() async throws {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let store = try SQLiteVoteStore(directory: dir.url)
    await store.close()
    let failure = await storeError { () throws(VoteStoreError) in
      _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))
    }
    #expect(failure == .closed)
    #expect(store.writeHealth() == StoreWriteHealth(isFailing: false))
  }

  @Test func aLostPostgresConnectionCountsAsAFailedWrite() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let database = try #require(handle.databaseName)
    let store = try PostgresVoteStore(
      connectionString: try #require(handle.connectionString), poolSize: 1)
    _ = try await store.create(CounterCreation(namespace: "ns", key: "k"))
    // A connection the server ended while idle is replaced before a write uses it (the
    // write then succeeds); here no new one is let in either, so the write fails.
    _ = try await TestPostgres.shared.administer(
      database: "postgres", "ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
    _ = try await TestPostgres.shared.administer(
      database: "postgres",
      """
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = '\(database)' AND pid <> pg_backend_pid()
      """)
    var failure: VoteStoreError?
    for _ in 0..<50 where failure == nil {
      failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
      }
      if failure == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(failure?.kind == .io)
    #expect(store.writeHealth().isFailing)
    let check = await storeError { () throws(VoteStoreError) in try await store.checkHealth() }
    #expect(check?.kind == .io)
    _ = try await TestPostgres.shared.administer(
      database: "postgres", "ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
    _ = try await store.apply(CounterMutation(namespace: "ns", key: "k", delta: 1))
    #expect(store.writeHealth().isFailing == false)
    try await store.checkHealth()
    await store.close()
    await handle.cleanUp()
  }
}
