import Foundation

/// The PostgreSQL advisory lock that tells maintenance commands a `roadmapctl serve` is
/// running on a database: each serve instance holds it shared for its lifetime, and a command
/// that must not run beside a server (`votes merge-refs`) takes it exclusively without waiting,
/// and refuses when it cannot.
///
/// The lock is a session lock (`pg_advisory_lock_shared`), so it lives on a connection of its
/// own, outside the store's pools (a pooled connection would carry it into every call, and a
/// replaced one would drop it). A thread looks at that connection every
/// ``checkSeconds`` seconds; when the connection was lost (a server restart,
/// `pg_terminate_backend`), the lock went with it, and the thread connects again and takes it
/// again. Until then (a few seconds), nothing keeps a maintenance command out. A pooler in
/// transaction mode (PgBouncer's `pool_mode = transaction`) does not keep a session's locks:
/// point serve at PostgreSQL itself, or at a session-mode pool.
public final class PostgresServeLock: @unchecked Sendable {
  /// The lock's two keys (`pg_advisory_lock_shared(int, int)`): "Road" and "serv" in ASCII.
  static let keys = (Int32(0x526F_6164), Int32(0x7365_7276))
  /// How often the holder looks at its connection, in seconds.
  public static let checkSeconds = 2
  /// The `application_name` of the holder's connection, as `pg_stat_activity` shows it.
  public static let applicationName = "roadmapctl serve lock"

  private let connection: PostgresConnection
  private let condition = NSCondition()
  private var stopped = false
  private var finished = false
  private let log: @Sendable (String) -> Void

  /// Takes the lock shared, on a connection of its own, and keeps it until ``release()``.
  ///
  /// Throws `.busy` when a maintenance command holds it (`votes merge-refs` is running), and
  /// what connecting throws otherwise. `log` hears, on the holder's thread, when the lock was
  /// lost and when it was taken again.
  public init(
    connectionString: String, timeouts: PostgresTimeouts = .init(),
    log: @escaping @Sendable (String) -> Void
  ) throws(VoteStoreError) {
    connection = try PostgresConnection(connectionString: connectionString, timeouts: timeouts)
    self.log = log
    do throws(VoteStoreError) {
      if try !Self.holdOrTake(connection) {
        throw VoteStoreError(
          .busy,
          "'roadmapctl votes merge-refs' is running on this PostgreSQL database (it holds "
            + "the lock every serve takes); start serve again once it has finished")
      }
    } catch {
      connection.close()
      throw error
    }
    let thread = Thread { [self] in keep() }
    thread.name = "pg serve lock"
    thread.stackSize = 1 << 18
    thread.start()
  }

  /// Lets the lock go and closes its connection (waits for the holder's thread to stop).
  public func release() {
    condition.lock()
    stopped = true
    condition.broadcast()
    while !finished { condition.wait() }
    condition.unlock()
  }

  /// The holder's thread: looks at the lock every ``checkSeconds`` until released.
  private func keep() {
    var held = true
    condition.lock()
    while !stopped {
      _ = condition.wait(until: Date(timeIntervalSinceNow: TimeInterval(Self.checkSeconds)))
      if stopped { break }
      condition.unlock()
      // The query connects again first when the connection was lost (and the lock with it).
      let now = (try? Self.holdOrTake(connection)) ?? false
      if now != held {
        log(
          now
            ? "The PostgreSQL serve lock is held again."
            : "warning: lost the PostgreSQL serve lock (its connection went, or "
              + "'roadmapctl votes merge-refs' holds it); until it is held again, merge-refs "
              + "cannot tell that this server is running.")
        held = now
      }
      condition.lock()
    }
    condition.unlock()
    // Let go, and drop the name, before closing: the server ends a closed session's locks
    // only once its backend has exited, after the close returns, and a merge-refs run right
    // after this server stopped would find the lock, or the name, still there.
    _ = try? connection.query(
      "SELECT pg_advisory_unlock_shared($1::int, $2::int), "
        + "set_config('application_name', 'roadmapctl', false)",
      [String(Self.keys.0), String(Self.keys.1)])
    connection.close()
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// Whether `connection`'s session holds the lock shared, taking it first when it does not
  /// (false: a maintenance command holds it).
  ///
  /// The session sits idle between looks: an `idle_session_timeout` set for the database or
  /// the role (PostgreSQL 14 and later) would end it, and the lock with it, between two
  /// looks; the session lifts it for itself.
  private static func holdOrTake(_ connection: PostgresConnection) throws(VoteStoreError) -> Bool {
    let row = try connection.query(
      """
      SELECT set_config('application_name', $3, false),
        CASE WHEN current_setting('idle_session_timeout', true) IS NOT NULL
          THEN set_config('idle_session_timeout', '0', false) END,
        CASE WHEN EXISTS (
          SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
            AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2
            AND mode = 'ShareLock' AND granted)
        THEN true ELSE pg_try_advisory_lock_shared($1::int, $2::int) END
      """,
      [String(keys.0), String(keys.1), applicationName]
    ).first
    return PostgresText.bool(row?[2])
  }

  /// Takes the lock exclusively on `connection` without waiting, for a command that must not
  /// run beside a server; the session keeps it until the connection closes.
  ///
  /// Throws `.busy`, naming who holds it, when a serve instance (or another such command) does.
  public static func takeExclusive(on connectionString: String) throws(VoteStoreError)
    -> PostgresExclusiveLock
  {
    let connection = try PostgresConnection(connectionString: connectionString)
    do throws(VoteStoreError) {
      var holders: [[String?]] = []
      // A session that held the lock and has just closed keeps it until its backend exits:
      // no holder listed means one is going, and the lock is tried again.
      for attempt in 0..<10 {
        if attempt > 0 { usleep(200_000) }
        // The session sits idle while the command works: an idle_session_timeout would end
        // it, and the lock with it, part way.
        let taken = try connection.query(
          """
          SELECT CASE WHEN current_setting('idle_session_timeout', true) IS NOT NULL
              THEN set_config('idle_session_timeout', '0', false) END,
            pg_try_advisory_lock($1::int, $2::int)
          """,
          [String(keys.0), String(keys.1)]
        ).first
        if PostgresText.bool(taken?[1]) {
          try refuseServersWithoutTheLock(connection)
          return PostgresExclusiveLock(connection: connection)
        }
        holders = try Self.holders(connection)
        if !holders.isEmpty { break }
      }
      let servers = holders.filter { $0[0] == "ShareLock" }
      if servers.isEmpty {
        throw VoteStoreError(
          .busy, "another 'roadmapctl votes merge-refs' is running on this PostgreSQL database")
      }
      let places = Array(Set(servers.map { $0[1] ?? "?" })).sorted().joined(separator: ", ")
      throw VoteStoreError(
        .busy,
        (servers.count == 1
          ? "a 'roadmapctl serve' is running"
          : "\(servers.count) 'roadmapctl serve' instances are running")
          + " on this PostgreSQL database (connected from \(places)); stop every one first")
    } catch {
      connection.close()
      throw error
    }
  }

  /// Refuses (letting the lock go) when a server's lock session is connected without the
  /// lock, after one look of its holder (``checkSeconds``) and a second more: a server whose
  /// lock connection went (a database restart) connects again and tries to take it at its next
  /// look, and finds it taken. Without this, a merge-refs run in that gap of a few seconds
  /// went ahead beside a running server.
  private static func refuseServersWithoutTheLock(
    _ connection: PostgresConnection
  ) throws(VoteStoreError) {
    usleep(UInt32(checkSeconds + 1) * 1_000_000)
    let count =
      try connection.query(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 "
          + "AND datname = current_database() AND pid <> pg_backend_pid()",
        [applicationName]
      ).first?.first ?? nil
    let servers = Int(count ?? "") ?? 0
    guard servers > 0 else { return }
    _ = try? connection.query(
      "SELECT pg_advisory_unlock($1::int, $2::int)", [String(keys.0), String(keys.1)])
    throw VoteStoreError(
      .busy,
      (servers == 1
        ? "a 'roadmapctl serve' is running" : "\(servers) 'roadmapctl serve' instances are running")
        + " on this PostgreSQL database (its lock was lost with its connection, a database "
        + "restart, and it is taking it again); stop every one first")
  }

  /// The sessions holding the lock: each one's lock mode and where it connects from
  /// (`pg_stat_activity` hides the address of another role's session from a role without
  /// `pg_read_all_stats`).
  private static func holders(_ connection: PostgresConnection) throws(VoteStoreError)
    -> [[String?]]
  {
    try connection.query(
      """
      SELECT l.mode,
        CASE WHEN a.client_port = -1 THEN 'a local socket'
          WHEN a.client_addr IS NOT NULL THEN host(a.client_addr)
          ELSE 'an address this role may not see' END
      FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database
          WHERE datname = current_database())
        AND l.classid = $1::int::oid AND l.objid = $2::int::oid AND l.objsubid = 2
        AND l.granted
      ORDER BY 2
      """,
      [String(keys.0), String(keys.1)]
    ).rows
  }
}

/// The exclusive serve lock taken by ``PostgresServeLock/takeExclusive(on:)``: no serve
/// instance can start while it is held. Let go by ``release()`` (or when the process ends).
public final class PostgresExclusiveLock: @unchecked Sendable {
  private let connection: PostgresConnection

  fileprivate init(connection: PostgresConnection) { self.connection = connection }

  /// Lets the lock go and closes its connection.
  public func release() {
    _ = try? connection.query(
      "SELECT pg_advisory_unlock($1::int, $2::int)",
      [String(PostgresServeLock.keys.0), String(PostgresServeLock.keys.1)])
    connection.close()
  }
}
