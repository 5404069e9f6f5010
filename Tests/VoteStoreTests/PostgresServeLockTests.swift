import Foundation
import Testing

@testable import VoteStore

/// The lock that keeps `votes merge-refs` from running beside `serve` on PostgreSQL: serve
/// instances share it, a maintenance command takes it alone, and neither waits for the other.
@Suite(.timeLimit(.minutes(3))) struct PostgresServeLockTests {
  @Test func serversShareItAndAMaintenanceCommandTakesItAlone() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    let first = try PostgresServeLock(connectionString: url, log: { _ in })
    let second = try PostgresServeLock(connectionString: url, log: { _ in })
    let refused = syncStoreError { () throws(VoteStoreError) in
      _ = try PostgresServeLock.takeExclusive(on: url)
    }
    #expect(refused?.kind == .busy)
    let message = refused?.message ?? ""
    #expect(
      message.hasPrefix(
        "2 'roadmapctl serve' instances are running on this PostgreSQL database (connected from "
      ) && message.hasSuffix("); stop every one first"), "\(message)")
    first.release()
    second.release()

    let exclusive = try PostgresServeLock.takeExclusive(on: url)
    let starting = syncStoreError { () throws(VoteStoreError) in
      _ = try PostgresServeLock(connectionString: url, log: { _ in })
    }
    #expect(starting?.kind == .busy)
    #expect(starting?.message.contains("'roadmapctl votes merge-refs' is running") == true)
    let another = syncStoreError { () throws(VoteStoreError) in
      _ = try PostgresServeLock.takeExclusive(on: url)
    }
    #expect(
      another?.message
        == "another 'roadmapctl votes merge-refs' is running on this PostgreSQL database")
    exclusive.release()
    let server = try PostgresServeLock(connectionString: url, log: { _ in })
    server.release()
  }
}

extension PostgresServeLockTests {
  /// A role that may not see where another role's session connects from was told the server
  /// connected from "a local socket" (its address is hidden, as a socket's is empty); it is
  /// now told the address is hidden from it.
  @Test func aHiddenAddressIsNotCalledALocalSocket() async throws {
    let (url, name) = try await TestPostgres.shared.createDatabase()
    // The throwaway cluster's key=value form, where a later keyword wins (a server named
    // by URL in ROADMAP_TEST_POSTGRES_URL may not let a new role in without a password).
    guard !url.contains("://") else { return }
    let role = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    _ = try await TestPostgres.shared.administer(database: name, "CREATE ROLE \(role) LOGIN")
    let server = try PostgresServeLock(connectionString: url, log: { _ in })
    defer { server.release() }
    let refused = syncStoreError { () throws(VoteStoreError) in
      _ = try PostgresServeLock.takeExclusive(on: url + " user=\(role)")
    }
    #expect(
      refused?.message
        == "a 'roadmapctl serve' is running on this PostgreSQL database (connected from an "
        + "address this role may not see); stop every one first", "\(String(describing: refused))")
  }
}

extension PostgresServeLockTests {
  /// With an `idle_session_timeout` set for the database (PostgreSQL 14 and later), the
  /// server ended the lock's session while it sat idle between two looks, and the lock went
  /// with it, again and again: for most of each interval a merge-refs could run. The session
  /// now lifts the timeout for itself and keeps its lock.
  @Test func anIdleSessionTimeoutDoesNotEndTheLocksSession() async throws {
    let (url, name) = try await TestPostgres.shared.createDatabase()
    guard let timedOut = try await Self.roleWithIdleSessionTimeout(url, database: name) else {
      return
    }
    let server = try PostgresServeLock(connectionString: timedOut, log: { _ in })
    defer { server.release() }
    // Each look in a session of its own (psql, as the administrator, without the timeout).
    func holder() async throws -> String {
      try await TestPostgres.shared.administer(
        database: name,
        "SELECT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
          + "WHERE l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted "
          + "AND a.application_name = '\(PostgresServeLock.applicationName)' "
          + "AND a.datname = current_database()"
      ).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let first = try await holder()
    #expect(!first.isEmpty, "the lock is not held")
    // Three of the holder's looks, each after an idle interval far past the timeout.
    let until = Date().addingTimeInterval(TimeInterval(3 * PostgresServeLock.checkSeconds + 1))
    var seen: Set<String> = [first]
    while Date() < until {
      seen.insert(try await holder())
      try await Task.sleep(nanoseconds: 300_000_000)
    }
    #expect(seen == [first], "the lock's session was ended and the lock let go: \(seen)")
  }
}

extension PostgresServeLockTests {
  /// The exclusive lock's session sits idle while merge-refs works: an idle_session_timeout
  /// must not end it (and let a server start part way).
  @Test func anIdleSessionTimeoutDoesNotEndTheExclusiveLock() async throws {
    let (url, name) = try await TestPostgres.shared.createDatabase()
    guard let timedOut = try await Self.roleWithIdleSessionTimeout(url, database: name) else {
      return
    }
    let exclusive = try PostgresServeLock.takeExclusive(on: timedOut)
    defer { exclusive.release() }
    // Idle far past the timeout (not a wait for anything: the lock must simply still be held).
    try await Task.sleep(nanoseconds: 2_000_000_000)
    let starting = syncStoreError { () throws(VoteStoreError) in
      let server = try PostgresServeLock(connectionString: url, log: { _ in })
      server.release()
    }
    #expect(starting?.kind == .busy, "\(String(describing: starting))")
  }
}

extension PostgresServeLockTests {
  /// After a database restart a server's lock session connects again and takes the lock at
  /// its next look; merge-refs run in that gap went ahead beside the server. It now looks
  /// again after one of the holder's looks, and refuses when a server's lock session is
  /// there without the lock.
  @Test func aServerThatLostItsLockIsStillSeen() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    // A server's lock session, connected again after a restart, before its next look.
    let reconnected = try PostgresConnection(connectionString: url)
    defer { reconnected.close() }
    try reconnected.execute("SET application_name = '\(PostgresServeLock.applicationName)'")
    let refused = syncStoreError { () throws(VoteStoreError) in
      _ = try PostgresServeLock.takeExclusive(on: url)
    }
    #expect(refused?.kind == .busy, "\(String(describing: refused))")
    #expect(refused?.message.hasPrefix("a 'roadmapctl serve' is running") == true)
    // It let the lock go: a server can start.
    let server = try PostgresServeLock(connectionString: url, log: { _ in })
    server.release()
  }
}

extension PostgresServeLockTests {
  /// A connection string for a new role whose sessions end after 300 ms idle
  /// (`idle_session_timeout`, PostgreSQL 14 and later); the administrator's own sessions keep
  /// none. Nil for a server named by URL in ROADMAP_TEST_POSTGRES_URL, which may not let a
  /// new role in without a password (the throwaway cluster's key=value form lets a later
  /// keyword win).
  static func roleWithIdleSessionTimeout(_ url: String, database: String) async throws -> String? {
    guard !url.contains("://") else { return nil }
    let role = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    _ = try await TestPostgres.shared.administer(
      database: database,
      "CREATE ROLE \(role) LOGIN; ALTER ROLE \(role) SET idle_session_timeout = '300ms'")
    return url + " user=\(role)"
  }
}

/// The error `body` throws, if any (synchronous).
private func syncStoreError(_ body: () throws(VoteStoreError) -> Void) -> VoteStoreError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}
