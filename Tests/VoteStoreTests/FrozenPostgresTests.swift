import Foundation
import Testing
import VoteStore

/// Issue 7, item 7: a frozen PostgreSQL (every server process stopped with SIGSTOP) makes
/// calls fail with `.timedOut` within the store's bound instead of hanging, and the store
/// recovers by itself after SIGCONT. Runs on a cluster of its own.
@Suite(.timeLimit(.minutes(3))) struct FrozenPostgresTests {
  @Test func aFrozenServerTimesOutCallsAndTheStoreRecoversByItself() async throws {
    let cluster = try TestPostgres.startSeparateCluster()
    defer { cluster.stop() }
    let timeouts = PostgresTimeouts(
      connectMilliseconds: 2000, statementMilliseconds: 1000, clientMilliseconds: 1500,
      retryMilliseconds: 500)
    // Before the freeze, the tight limits can run out on a loaded machine (a CI run timed out
    // a connection's set-up at 1.5 s): the store is opened, and the counter made, again
    // until they are.
    var opened: PostgresVoteStore?
    for attempt in 0..<60 where opened == nil {
      let result = Result { () throws(VoteStoreError) in
        try PostgresVoteStore(
          connectionString: cluster.connectionString, poolSize: 3, timeouts: timeouts)
      }
      switch result {
      case .success(let store): opened = store
      case .failure(let error):
        if error.kind != .timedOut || attempt == 59 { throw error }
        try await Task.sleep(for: .milliseconds(500))
      }
    }
    let store = try #require(opened)
    var created = false
    for attempt in 0..<60 where !created {
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.create(CounterCreation(namespace: "ns.test", key: "k1", value: 1))
      }
      guard let failure else {
        created = true
        break
      }
      if (failure.kind != .timedOut && failure.kind != .io) || attempt == 59 { throw failure }
      try await Task.sleep(for: .milliseconds(500))
    }

    try cluster.signalAll(SIGSTOP)
    // Many requests at once: each is answered with an error (none hangs past the suite's
    // time limit), and every error is the bounded timeout, not a hang turned into a lost
    // connection later.
    let failures = await withTaskGroup(of: VoteStoreError?.self) { group in
      for index in 0..<12 {
        group.addTask {
          await storeError { () throws(VoteStoreError) in
            if index.isMultiple(of: 2) {
              _ = try await store.apply(
                CounterMutation(namespace: "ns.test", key: "k1", delta: 1))
            } else {
              _ = try await store.record(namespace: "ns.test", key: "k1")
            }
          }
        }
      }
      return await group.reduce(into: [VoteStoreError?]()) { $0.append($1) }
    }
    #expect(failures.count == 12)
    // Each either ran out of time, or failed fast without sending anything once another
    // call had (nothing changed).
    #expect(
      failures.allSatisfy { $0?.kind == .timedOut || $0.map(Self.failedFast) == true },
      "\(failures)")
    #expect(failures.contains { $0?.message.contains("did not answer within 1500 ms") == true })
    let health = await storeError { () throws(VoteStoreError) in try await store.checkHealth() }
    #expect(health?.kind == .timedOut || health.map(Self.failedFast) == true)
    #expect(store.writeHealth().isFailing)

    try cluster.signalAll(SIGCONT)
    var recovered: MutationResult?
    for _ in 0..<100 where recovered == nil {
      do {
        recovered = try await store.apply(
          CounterMutation(namespace: "ns.test", key: "k1", delta: 1))
      } catch {
        #expect(error.kind == .timedOut || error.kind == .io, "\(error)")
        try await Task.sleep(for: .milliseconds(100))
      }
    }
    // No increment of the freeze committed on thaw: each had sent only its BEGIN before its
    // connection was dropped.
    #expect(recovered?.record?.value == 2)
    try await store.checkHealth()
    #expect(!store.writeHealth().isFailing)
    await store.close()
  }

  /// Whether `error` is the store's fast refusal while the server is not answering.
  private static func failedFast(_ error: VoteStoreError) -> Bool {
    error.kind == .io && error.message.contains("failing fast, nothing was sent")
  }
}
