import Foundation
import TestProcess
import Testing
import VoteStore

/// A connection lost after a write's `COMMIT` reached the server, before its answer did: the
/// server committed, so the store must say the outcome is unknown (`.outcomeUnknown`), never
/// that nothing was changed (`.io`), or a client that retries counts twice. A proxy between
/// the store and the server cuts the connection right after forwarding `COMMIT`'s answer.
@Suite(.timeLimit(.minutes(3))) struct PostgresLostCommitTests {
  /// The proxy in front of a database of the test's own, and the direct connection string.
  private static func proxied() async throws -> (
    proxy: PostgresCuttingProxy, through: String, direct: String
  ) {
    let (direct, _) = try await TestPostgres.shared.createDatabase()
    let (proxy, through) = try PostgresCuttingProxy.inFrontOf(direct)
    return (proxy, through, direct)
  }

  @Test func aCommitWhoseAnswerIsLostIsAnUnknownOutcome() async throws {
    let (proxy, through, direct) = try await Self.proxied()
    defer { proxy.stop() }
    let store = try PostgresVoteStore(connectionString: through, poolSize: 1)
    let creation = CounterCreation(namespace: "ns.test", key: "k1")
    let vote = CounterMutation(namespace: "ns.test", key: "k1", delta: 1, createIfMissing: creation)
    _ = try await store.apply(vote)

    proxy.cutAfterNextCommits(1)
    let lost = await storeError { () throws(VoteStoreError) in _ = try await store.apply(vote) }
    #expect(proxy.cuts == 1)
    #expect(lost?.kind == .outcomeUnknown, "\(String(describing: lost))")
    #expect(lost?.outcomeIsUnknown == true)
    #expect(lost?.message.contains("may or may not have been made") == true)

    // The server did commit it; the store carries on with a new connection.
    let reader = try PostgresVoteStore(connectionString: direct, poolSize: 1)
    #expect(try await reader.record(namespace: "ns.test", key: "k1")?.value == 2)
    #expect(try await store.apply(vote).record?.value == 3)

    await store.close()
    await reader.close()
  }

  @Test func aBoardWriteWhoseCommitAnswerIsLostIsAnUnknownOutcome() async throws {
    let (proxy, through, _) = try await Self.proxied()
    defer { proxy.stop() }
    let boards = try PostgresBoardStore(connectionString: through, poolSize: 1)
    proxy.cutAfterNextCommits(1)
    var caught: (any Error)?
    do {
      _ = try await boards.write { tables in
        try tables.createProject(
          BoardProjectRow(project: "lost-commit", settings: "{}", createdAt: 1))
      }
    } catch {
      caught = error
    }
    #expect((caught as? VoteStoreError)?.kind == .outcomeUnknown, "\(String(describing: caught))")
    #expect(try await boards.read { try $0.projects() }.contains("lost-commit"))
    await boards.close()
  }

  /// A connection cut while idle (as a database restart cuts it) used to fail the next
  /// write with `.io` ("nothing was changed": a 503, a vote lost). Nothing of that write had
  /// been sent, so it is now made on a fresh connection instead: found dead before its
  /// `BEGIN`, or lost at its `BEGIN` and run once more.
  @Test func aWriteOnAConnectionCutWhileIdleIsMadeOnAFreshOne() async throws {
    let (proxy, through, direct) = try await Self.proxied()
    defer { proxy.stop() }
    let store = try PostgresVoteStore(connectionString: through, poolSize: 1)
    let creation = CounterCreation(namespace: "ns.test", key: "k1")
    let vote = CounterMutation(namespace: "ns.test", key: "k1", delta: 1, createIfMissing: creation)
    _ = try await store.apply(vote)

    proxy.cutAll()
    #expect(try await store.apply(vote).record?.value == 2)
    let reader = try PostgresVoteStore(connectionString: direct, poolSize: 1)
    #expect(try await reader.record(namespace: "ns.test", key: "k1")?.value == 2)
    await store.close()
    await reader.close()
  }
}
