/// How long the PostgreSQL store waits for the server, so that a frozen or unreachable
/// database never hangs a request.
///
/// Every wait is bounded: connecting (`connect_timeout`), each statement on the server
/// (`statement_timeout`), each statement as seen by the client (a `poll` on the socket, which
/// also catches a server that stopped answering altogether, e.g. `SIGSTOP`ped or behind a dead
/// network path), and TCP itself (keepalives and `tcp_user_timeout`). A call that runs out of
/// time throws ``VoteStoreError/Kind/timedOut``; its connection is dropped and rebuilt on a
/// later call. After a timeout the store fails calls fast (`.timedOut` at once) for
/// ``retryMilliseconds`` and then lets one call try again, so that requests answer in time
/// and the store recovers by itself when the server answers again.
public struct PostgresTimeouts: Sendable, Equatable {
  /// The longest wait for a new connection, in milliseconds (rounded up to seconds, at least
  /// 2). Default 5,000. A positive `connect_timeout` in the connection string (or
  /// `PGCONNECT_TIMEOUT`) takes its place; `connect_timeout=0`, which libpq reads as "wait for
  /// ever", does not.
  public var connectMilliseconds: Int
  /// The server's own limit on one statement (`statement_timeout`); default 5,000.
  public var statementMilliseconds: Int
  /// The client's limit on one statement's round trip; default 8,000 (above the statement
  /// timeout, so a slow statement is the server's `57014` error rather than a dropped
  /// connection).
  public var clientMilliseconds: Int
  /// How long calls fail fast after a timeout before one tries again; default 1,000.
  public var retryMilliseconds: Int
  /// The longest a call waits for one of its store's connections to be free, in
  /// milliseconds; default 10,000. A call still waiting then is answered with
  /// ``VoteStoreError/Kind/busy`` and never run (nothing was changed). Without it, a lock held
  /// elsewhere (a `SELECT … FOR UPDATE` left open in `psql`, a long import) kept every
  /// connection waiting on it in turn, and the calls queued behind them, on any counter,
  /// waited without end (votes on another counter went unanswered past 60 s).
  public var queueMilliseconds: Int
  /// How long the server lets one of the store's sessions sit idle inside a transaction
  /// before it ends the session (`idle_in_transaction_session_timeout`), in milliseconds;
  /// default 30,000. The store sends a transaction's statements one after the other, so
  /// only a client that stopped (`SIGSTOP`, a paused VM, a swapped-out process) leaves one
  /// idle that long; without it, such an instance held its transaction's row locks for as
  /// long as it was stopped, and every other instance's votes on those counters failed.
  /// A streamed export, whose client may wait on its output, is exempt.
  public var idleInTransactionMilliseconds: Int
  /// The server's limit on one statement's wait for a lock (`lock_timeout`), in milliseconds;
  /// default 4,000. A vote on a counter whose row is locked elsewhere waits this long, then
  /// is answered busy (nothing was changed), and that counter's contention does not count
  /// against the store's write health. Keep it below ``statementMilliseconds``: a wait the
  /// statement timeout ends first is told as a slow database, which does count (the default
  /// was 10 s, past the 5 s statement timeout, so every wait for a row lock ended that way).
  public var lockMilliseconds: Int

  /// Creates timeouts; every parameter has the default documented on its property.
  public init(
    connectMilliseconds: Int = 5000, statementMilliseconds: Int = 5000,
    clientMilliseconds: Int = 8000, retryMilliseconds: Int = 1000, queueMilliseconds: Int = 10_000,
    idleInTransactionMilliseconds: Int = 30_000, lockMilliseconds: Int = 4_000
  ) {
    self.connectMilliseconds = connectMilliseconds
    self.statementMilliseconds = statementMilliseconds
    self.clientMilliseconds = clientMilliseconds
    self.retryMilliseconds = retryMilliseconds
    self.queueMilliseconds = queueMilliseconds
    self.idleInTransactionMilliseconds = idleInTransactionMilliseconds
    self.lockMilliseconds = lockMilliseconds
  }

  /// The longest a call waits before it is answered once a connection took it: a statement's
  /// client limit, or a connection attempt, whichever is longer (a call may first wait
  /// ``queueMilliseconds`` for a connection).
  public var callBoundMilliseconds: Int { max(clientMilliseconds, connectMilliseconds) }
}
