import CPostgres
import Foundation

/// One libpq connection, used on one dedicated thread, with its named prepared statements.
///
/// A lost connection fails the call in progress with `.io`, or with `.outcomeUnknown` inside
/// ``writing(_:)`` once a statement that may change data was sent; the next call reconnects
/// first. A connection the server closed while it sat idle in the pool (a restart,
/// `pg_terminate_backend`) is found before anything is sent on it and replaced
/// (``ensureConnected()``), and ``retryingWrite(_:)`` runs a write once more on a fresh
/// connection when it was lost before it sent anything that could change data.
final class PostgresConnection: ClosableConnection, @unchecked Sendable {
  private let connectionString: String
  private var handle: OpaquePointer?
  private var prepared: [String: String] = [:]
  private let timeouts: PostgresTimeouts
  private let availability: PostgresAvailability
  /// The client's limit on one statement; raised while migrating.
  private var clientMilliseconds: Int
  /// Inside ``writing(_:)``: whether a statement that may change data has been sent, so that a
  /// connection lost from then on leaves the write's outcome unknown. Nil outside a write.
  private var writeSent: Bool?

  /// Connects; throws `.invalid` for a string that is neither a `postgresql://` URI nor a
  /// `key=value` string (``PostgresConnectionString``), `.io` when the server cannot be
  /// reached or refuses the login, and `.timedOut` when it does not answer within the
  /// connect timeout.
  init(
    connectionString: String, timeouts: PostgresTimeouts = .init(),
    availability: PostgresAvailability? = nil
  ) throws(VoteStoreError) {
    self.connectionString = connectionString
    self.timeouts = timeouts
    self.availability =
      availability ?? PostgresAvailability(retryMilliseconds: timeouts.retryMilliseconds)
    clientMilliseconds = timeouts.clientMilliseconds
    if let problem = PostgresConnectionString.problem(connectionString) {
      throw VoteStoreError(.invalid, problem)
    }
    try connect()
  }

  deinit { close() }

  private func connect() throws(VoteStoreError) {
    close()
    if let refusal = availability.admit() { throw refusal }
    try SystemLibraries.requirePostgres()
    // The caller's string is expanded last, so its own settings (if any) win. Keepalives
    // and tcp_user_timeout bound a TCP connection whose peer vanished (ignored on a Unix
    // socket, where the client's poll timeout does the same).
    let keywords = [
      "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
      "tcp_user_timeout", "dbname",
    ]
    let values = ["1", "5", "2", "3", String(timeouts.clientMilliseconds), connectionString]
    // Connecting without blocking, so that the store's own deadline bounds it: libpq's
    // connect_timeout=0 would wait for ever (a server that accepts and never answers).
    let (seconds, bySetting) = connectBoundSeconds()
    let deadline = currentMilliseconds() &+ Int64(seconds) * 1000
    let started = withCStrings(keywords) { keywordPointers in
      withCStrings(values) { valuePointers in
        PQconnectStartParams(keywordPointers, valuePointers, 1)
      }
    }
    guard let connection = started else {
      throw VoteStoreError(.io, "cannot connect to PostgreSQL: libpq could not allocate")
    }
    func failure(_ kind: VoteStoreError.Kind, _ why: String) -> VoteStoreError {
      // libpq may quote part of the string (a bad percent-encoding in the password, say).
      let message = PostgresConnectionString.redacting(
        why.isEmpty ? Self.message(PQerrorMessage(connection)) : why, of: connectionString)
      PQfinish(connection)
      if kind == .timedOut {
        availability.down("connecting timed out")
      } else {
        availability.probeEnded()
      }
      return VoteStoreError(
        kind,
        "cannot connect to PostgreSQL"
          + (kind == .timedOut ? " within \(seconds) s (\(bySetting))" : "") + ": \(message)")
    }
    var polling =
      PQstatus(connection) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING
    while polling != PGRES_POLLING_OK {
      if polling == PGRES_POLLING_FAILED { throw failure(.io, "") }
      let remaining = deadline &- currentMilliseconds()
      if remaining <= 0 { throw failure(.timedOut, "timeout expired") }
      var descriptor = pollfd(
        fd: PQsocket(connection),
        events: Int16(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
      let ready = poll(&descriptor, 1, Int32(clamping: remaining))
      if ready < 0 && errno != EINTR {
        throw failure(.io, "waiting for the server failed: \(String(cString: strerror(errno)))")
      }
      if ready > 0 { polling = PQconnectPoll(connection) }
    }
    handle = connection
    availability.up()
    // libpq's default prints notices, and the last words of a server that ends an idle
    // session, to stderr: lines of their own in serve's log. What matters reaches the caller
    // as an error.
    PQsetNoticeProcessor(connection, { _, _ in }, nil)
    guard PQsetnonblocking(connection, 1) == 0 else {
      close()
      throw VoteStoreError(.io, "cannot make the PostgreSQL connection non-blocking")
    }
    // Waiting for a row lock longer than this is reported as busy rather than hanging; a
    // session of ours left idle in a transaction (its client stopped) is ended, and its locks
    // let go, by the server.
    try execute(
      "SET lock_timeout = \(max(0, timeouts.lockMilliseconds)); SET statement_timeout = \(max(0, timeouts.statementMilliseconds)); "
        + "SET idle_in_transaction_session_timeout = "
        + "\(max(0, timeouts.idleInTransactionMilliseconds)); "
        + "SET application_name = 'roadmapctl'; SET client_min_messages = warning",
      changesNothing: true)
  }

  /// How long a connection attempt may take, in seconds, and why: the connection string's
  /// own `connect_timeout` (or `PGCONNECT_TIMEOUT`) when it is a positive number (at least
  /// 2, as libpq reads it), else the store's bound; `connect_timeout=0`, libpq's "wait for
  /// ever", gets the store's bound too, so that no start-up or reconnect hangs.
  private func connectBoundSeconds() -> (seconds: Int, why: String) {
    let own = max(2, (timeouts.connectMilliseconds + 999) / 1000)
    var setting = ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"].map {
      (value: $0, name: "PGCONNECT_TIMEOUT")
    }
    if let options = PQconninfoParse(connectionString, nil) {
      defer { PQconninfoFree(options) }
      var option = options
      while let keyword = option.pointee.keyword {
        if String(cString: keyword) == "connect_timeout", let value = option.pointee.val {
          setting = (String(cString: value), "connect_timeout")
        }
        option += 1
      }
    }
    guard let setting else { return (own, "the store's bound") }
    guard let seconds = Int(setting.value.trimmingCharacters(in: .whitespaces)), seconds > 0
    else {
      return (own, "the store's bound, as \(setting.name)=\(setting.value) sets none")
    }
    return (max(2, seconds), "\(setting.name)=\(seconds)")
  }

  /// Runs `body` with the server's and the client's statement limits lifted to `seconds`
  /// (migrations may take longer than a vote).
  func withLongTimeouts<T>(
    seconds: Int, _ body: () throws(VoteStoreError) -> T
  ) throws(VoteStoreError) -> T {
    try execute(
      "SET statement_timeout = \(seconds * 1000); "
        + "SET idle_in_transaction_session_timeout = \(seconds * 1000)")
    clientMilliseconds = seconds * 1000
    defer {
      clientMilliseconds = timeouts.clientMilliseconds
      if isConnected {
        try? execute(
          "SET statement_timeout = \(max(0, timeouts.statementMilliseconds)); "
            + "SET idle_in_transaction_session_timeout = "
            + "\(max(0, timeouts.idleInTransactionMilliseconds))")
      }
    }
    return try body()
  }

  /// Runs `sql`, a wait for a lock that may rightly be held long (the migration lock while
  /// another instance migrates), bounded by the statement timeout alone: the store's
  /// `lock_timeout` (seconds, for a vote's row) is lifted for it and put back after, in one
  /// round trip (one implicit transaction: a failure puts it back too).
  func executeWaitingForLock(_ sql: String) throws(VoteStoreError) {
    try execute(
      "SET lock_timeout = 0; \(sql); SET lock_timeout = \(max(0, timeouts.lockMilliseconds))",
      changesNothing: true)
  }

  /// Whether the connection is (as far as libpq knows) alive.
  var isConnected: Bool { handle != nil && PQstatus(handle) == CONNECTION_OK }

  /// Reconnects when the last call found the connection lost, or when an idle connection
  /// turns out to be dead before anything is sent on it.
  ///
  /// Outside a transaction nothing should arrive on the socket; a server that ended the
  /// session (restarted, or `pg_terminate_backend`) has sent its farewell (`FATAL: terminating
  /// connection due to administrator command`) and closed it, which libpq only learns when it
  /// next reads. So a readable idle socket means the connection is dropped and a fresh one made
  /// first: the call then runs as if the pool had never held the dead one. Inside a transaction
  /// the connection is never replaced (that would run the rest outside it).
  func ensureConnected() throws(VoteStoreError) {
    if isConnected, PQtransactionStatus(handle) == PQTRANS_IDLE, !idleSocketIsQuiet() {
      close()
    }
    if !isConnected { try connect() }
  }

  /// Whether the idle connection's socket has nothing to read (one `poll` that does not wait).
  private func idleSocketIsQuiet() -> Bool {
    guard let handle else { return false }
    var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) == 0
  }

  /// Runs `sql` with `parameters` ($1…) bound as text; prepared once per connection.
  @discardableResult
  func query(_ sql: String, _ parameters: [String?] = []) throws(VoteStoreError) -> PostgresRows {
    for case let text? in parameters where text.utf8.contains(0) {
      throw VoteStoreError(.invalid, "PostgreSQL text cannot hold a NUL character")
    }
    try ensureConnected()
    let name: String
    if let existing = prepared[sql] {
      name = existing
    } else {
      name = "roadmap_\(prepared.count)"
      let count = Int32(parameters.count)
      let result = try roundTrip(doing: sql, changesNothing: true) {
        PQsendPrepare(handle, name, sql, count, nil)
      }
      _ = try rows(result, doing: sql)
      prepared[sql] = name
    }
    let values = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for value in values { free(value) } }
    let pointers = values.map { UnsafePointer($0) }
    let result = try roundTrip(doing: sql) {
      pointers.withUnsafeBufferPointer { buffer in
        PQsendQueryPrepared(
          handle, name, Int32(parameters.count), buffer.baseAddress, nil, nil, 0)
      }
    }
    return try rows(result, doing: sql)
  }

  /// Runs statements without parameters (transaction control, schema).
  func execute(_ sql: String) throws(VoteStoreError) {
    try execute(sql, changesNothing: false)
  }

  /// ``execute(_:)``; `changesNothing` says that the statements cannot change data (`BEGIN`,
  /// `SET`), so that losing the connection while they run leaves a write's outcome known:
  /// nothing was changed.
  func execute(_ sql: String, changesNothing: Bool) throws(VoteStoreError) {
    guard let handle else { throw VoteStoreError(.io, "the PostgreSQL connection is closed") }
    _ = try rows(
      try roundTrip(doing: sql, changesNothing: changesNothing) { PQsendQuery(handle, sql) },
      doing: sql)
  }

  /// Runs `body`, a write, so that a connection lost after its first statement that may
  /// change data was sent (any statement after `BEGIN`, the `COMMIT` above all) throws
  /// `.outcomeUnknown` instead of `.io`: the server may have committed the change before the
  /// connection went, and a caller told that nothing changed would count a retry twice.
  func writing<T>(_ body: () throws(VoteStoreError) -> T) throws(VoteStoreError) -> T {
    writeSent = false
    defer { writeSent = nil }
    return try body()
  }

  /// Runs `attempt`, one whole write (its own transaction, inside ``writing(_:)``), and runs
  /// it again when it failed in a way that left nothing changed and a new attempt can mend:
  ///
  /// - once, on a fresh connection, when the connection was lost before the write sent
  ///   anything that could change data (`.io` with the connection gone: it failed at its
  ///   `BEGIN`, or connecting). A write that had sent more is never run again
  ///   (`.outcomeUnknown`: it may have committed);
  /// - up to three times when a concurrent transaction got in first (``VoteStoreError/Kind/conflict``:
  ///   a unique key it had just taken, a serialization failure, a deadlock). The server
  ///   rolled this one back, so nothing of it was kept.
  func retryingWrite<T>(_ attempt: () throws(VoteStoreError) -> T) throws(VoteStoreError) -> T {
    var reconnected = false
    var conflicts = 0
    while true {
      do throws(VoteStoreError) {
        return try writing(attempt)
      } catch  where error.kind == .io && !isConnected && !reconnected {
        reconnected = true
      } catch  where error.kind == .conflict && conflicts < 3 {
        conflicts += 1
      }
    }
  }

  /// The error for a connection lost while `sql` ran: `.outcomeUnknown` when a write had
  /// sent a statement that may change data, else `.io`.
  private func connectionLost(_ message: String) -> VoteStoreError {
    guard writeSent == true else { return VoteStoreError(.io, message) }
    return VoteStoreError(
      .outcomeUnknown,
      message + " (after the write's statements were sent: it may or may not have been made)")
  }

  /// Sends with `send` and waits for the result, each wait on the socket bounded by the
  /// client timeout: the result (the first error, else the last result), or `.timedOut`
  /// (the connection is then dropped: its state is unknown).
  private func roundTrip(
    doing sql: String, changesNothing: Bool = false, _ send: () -> Int32
  ) throws(VoteStoreError) -> OpaquePointer? {
    // A connection inside a transaction finishes it (each wait is bounded below): failing
    // fast there would leave the transaction open on the pooled connection, its changes
    // committed by the next write's COMMIT and its row locks held until then.
    if !isInTransaction, let refusal = availability.admit() { throw refusal }
    guard let handle else { throw VoteStoreError(.io, "the PostgreSQL connection is closed") }
    // From here the server may receive the statement (even when `send` fails part way).
    if !changesNothing && writeSent == false { writeSent = true }
    guard send() == 1 else {
      let message = Self.message(PQerrorMessage(handle))
      let lost = PQstatus(handle) != CONNECTION_OK
      if lost { availability.probeEnded() } else { availability.up() }
      throw connectionLost("PostgreSQL connection \(lost ? "lost" : "failed"): \(message)")
    }
    let deadline = currentMilliseconds() &+ Int64(clientMilliseconds)
    while true {
      let flushed = PQflush(handle)
      if flushed == 0 { break }
      if flushed < 0 { throw lost(handle) }
      try wait(handle, events: Int16(POLLIN | POLLOUT), until: deadline, doing: sql)
      if PQconsumeInput(handle) == 0 { throw lost(handle) }
    }
    var kept: OpaquePointer?
    while true {
      while PQisBusy(handle) != 0 {
        try wait(handle, events: Int16(POLLIN), until: deadline, doing: sql)
        if PQconsumeInput(handle) == 0 {
          PQclear(kept)
          throw lost(handle)
        }
      }
      guard let result = PQgetResult(handle) else { break }
      let status = PQresultStatus(result)
      let isError = status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK
      if kept == nil || isError && Self.isSuccess(kept) {
        PQclear(kept)
        kept = result
      } else if !isError && Self.isSuccess(kept) {
        PQclear(kept)
        kept = result
      } else {
        PQclear(result)
      }
    }
    availability.up()
    return kept
  }

  private static func isSuccess(_ result: OpaquePointer?) -> Bool {
    guard let result else { return false }
    let status = PQresultStatus(result)
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
  }

  /// Waits until the socket is ready for `events`, or throws `.timedOut` at `deadline`.
  private func wait(
    _ handle: OpaquePointer, events: Int16, until deadline: Int64, doing sql: String
  ) throws(VoteStoreError) {
    let socket = PQsocket(handle)
    while true {
      let remaining = deadline &- currentMilliseconds()
      if remaining <= 0 {
        close()
        availability.down("no answer within \(clientMilliseconds) ms")
        throw VoteStoreError(
          .timedOut,
          "PostgreSQL did not answer within \(clientMilliseconds) ms (\(Self.summary(sql))); "
            + "the connection was dropped")
      }
      var descriptor = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&descriptor, 1, Int32(clamping: remaining))
      if ready > 0 { return }
      if ready < 0 && errno != EINTR {
        let message = String(cString: strerror(errno))
        close()
        availability.probeEnded()
        throw connectionLost("waiting for PostgreSQL failed: \(message)")
      }
    }
  }

  private func lost(_ handle: OpaquePointer) -> VoteStoreError {
    let message = Self.message(PQerrorMessage(handle))
    close()
    availability.probeEnded()  // a lost connection is rebuilt at once; only timeouts fail fast
    return connectionLost("PostgreSQL connection lost: \(message)")
  }

  /// The first words of a statement, for messages.
  private static func summary(_ sql: String) -> String {
    let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(4)
    return words.joined(separator: " ") + (words.count == 4 ? " …" : "")
  }

  /// Runs `body` in a transaction; rolls back when it throws.
  func transaction<T>(
    _ begin: String = "BEGIN", _ body: () throws(VoteStoreError) -> T
  ) throws(VoteStoreError) -> T {
    try ensureConnected()
    try execute(begin, changesNothing: true)
    do throws(VoteStoreError) {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      if isConnected {
        do throws(VoteStoreError) {
          try execute("ROLLBACK", changesNothing: true)
        } catch {
          // The session ends the transaction: nothing of it may stay open on a pooled
          // connection for the next COMMIT to take along.
          close()
        }
        if isInTransaction { close() }
      }
      throw error
    }
  }

  /// Whether the connection is inside a transaction block (begun, not yet ended).
  private var isInTransaction: Bool {
    guard let handle else { return false }
    let status = PQtransactionStatus(handle)
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
  }

  private func rows(_ result: OpaquePointer?, doing sql: String) throws(VoteStoreError)
    -> PostgresRows
  {
    defer { PQclear(result) }
    guard let result else {
      throw connectionLost(
        "PostgreSQL connection failed: \(Self.message(PQerrorMessage(handle)))")
    }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      let message = Self.message(PQresultErrorMessage(result))
      guard isConnected, let state, !Self.endsSession(sqlState: state) else {
        // The server ended the session (a restart, `pg_terminate_backend`): the socket is
        // about to close, if libpq has not seen it yet.
        close()
        availability.probeEnded()
        throw connectionLost("PostgreSQL connection lost: \(message)")
      }
      throw Self.failure(sqlState: state, message: message)
    }
    let rowCount = PQntuples(result)
    let columnCount = PQnfields(result)
    var rows: [[String?]] = []
    rows.reserveCapacity(Int(rowCount))
    for row in 0..<rowCount {
      var values: [String?] = []
      values.reserveCapacity(Int(columnCount))
      for column in 0..<columnCount {
        if PQgetisnull(result, row, column) != 0 {
          values.append(nil)
        } else {
          values.append(String(cString: PQgetvalue(result, row, column)))
        }
      }
      rows.append(values)
    }
    let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    return PostgresRows(rows: rows, affected: affected)
  }

  /// The store error for an error the server reported with `sqlState` and `message` (its
  /// text, for the log): the message keeps it, and what a client may be told is in our own
  /// words (``VoteStoreError/publicDetail``), never the database's.
  static func failure(sqlState: String, message: String) -> VoteStoreError {
    let kind = kind(sqlState: sqlState)
    let detail: String? =
      switch kind {
      case _ where sqlState == lockNotAvailable:
        "the data is locked by another change that has not finished; nothing was changed"
      // Not busy's phrase, which speaks of SQLite's file lock ("locked by another process").
      case _ where sqlState == "57014":
        "the database did not finish this call within the store's time limit; nothing was changed"
      case _ where sqlState == "53300":
        "the database takes no more connections; nothing was changed"
      case .invalid:
        "the database refused the values of this change (SQLSTATE \(sqlState)); nothing was changed"
      case .conflict:
        "a concurrent change to the same data got in first; nothing was changed, try again"
      default: nil
      }
    return VoteStoreError(kind, "PostgreSQL [\(sqlState)]: \(message)", publicDetail: detail)
  }

  /// The SQLSTATE of a wait for a lock that `lock_timeout` ended (`lock_not_available`).
  static let lockNotAvailable = "55P03"

  /// Whether `error` is a statement's wait for a lock (a row another transaction holds) that
  /// `lock_timeout` ended: contention on that data, not a failure of the database.
  static func isLockWait(_ error: VoteStoreError) -> Bool {
    error.kind == .busy && error.message.hasPrefix("PostgreSQL [\(lockNotAvailable)]")
  }

  /// Whether an error with this SQLSTATE ends the session: a connection exception (08…) or
  /// an operator intervention that terminates it (57P01 admin shutdown, 57P02 crash
  /// shutdown, 57P04 database dropped, 57P05 idle session timeout).
  static func endsSession(sqlState: String) -> Bool {
    sqlState.hasPrefix("08") || ["57P01", "57P02", "57P04", "57P05"].contains(sqlState)
  }

  /// The store error kind for a SQLSTATE.
  static func kind(sqlState: String) -> VoteStoreError.Kind {
    switch sqlState {
    case "53100": return .full  // disk_full
    // unique_violation, serialization_failure, deadlock_detected: a concurrent transaction
    // got in first; this one was rolled back.
    case "23505", "40001", "40P01": return .conflict
    case "55P03", "57014", "53300": return .busy  // lock timeout, statement timeout,
    // too many connections
    case "XX001", "XX002": return .corrupt  // data_corrupted, index_corrupted
    case "25006": return .io  // read_only_sql_transaction (a standby)
    default:
      if sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState.hasPrefix("58") {
        return .io  // connection exception, shutdown, system error
      }
      if sqlState.hasPrefix("22") || sqlState.hasPrefix("23") { return .invalid }
      return .other
    }
  }

  private static func message(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "unknown error" }
    return oneLine(String(cString: text))
  }

  /// libpq's text on one line: its messages run over several (`\tIs the server running…`,
  /// `DETAIL: …`), and a log keeps one line per event. Each line break, with the blanks
  /// around it, becomes one space.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
      .joined(separator: " ")
  }

  /// Closes the connection.
  func close() {
    if let handle { PQfinish(handle) }
    handle = nil
    prepared = [:]
  }
}

/// Calls `body` with a NULL-terminated array of C strings for `strings`.
private func withCStrings<R>(
  _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
) -> R {
  let copies = strings.map { strdup($0) }
  defer { for copy in copies { free(copy) } }
  let pointers = copies.map { UnsafePointer($0) } + [nil]
  return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// The rows of a result, copied out as text, and the number of rows a command affected.
struct PostgresRows {
  var rows: [[String?]]
  var affected: Int

  var first: [String?]? { rows.first }
}

/// Parameter and column text for PostgreSQL's text format.
enum PostgresText {
  static func bool(_ value: Bool) -> String { value ? "t" : "f" }

  static func int64(_ value: String?) -> Int64 { value.flatMap { Int64($0) } ?? 0 }

  static func bool(_ value: String?) -> Bool { value == "t" }

  /// A `text[]` literal: `{"a","b"}` with quotes and backslashes escaped.
  static func array(_ values: [String]) -> String {
    let items = values.map { value in
      "\""
        + value.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    return "{" + items.joined(separator: ",") + "}"
  }
}
