/// Settings of a ``SQLiteVoteStore``, with defaults suited to `roadmapctl serve`.
public struct SQLiteVoteStoreOptions: Sendable, Equatable {
  /// How thoroughly the database is checked when the store opens.
  public enum StartupCheck: Sendable, Equatable {
    /// `PRAGMA integrity_check` for databases up to 64 MiB, `quick_check` above.
    case automatic
    /// `PRAGMA quick_check`: structure and records, without comparing indexes to tables.
    case quick
    /// `PRAGMA integrity_check`: everything, slower on large databases.
    case full
  }

  /// How the database is checked at open; a damaged database makes the initializer throw.
  public var startupCheck: StartupCheck
  /// How long a call waits for another process's lock before failing with `.busy`.
  public var busyTimeoutMilliseconds: Int
  /// How many read connections (each on its own thread) serve reads in parallel.
  public var readConnections: Int
  /// The most writes grouped into one transaction (one fsync).
  public var maximumBatchSize: Int
  /// A cap on the database size in pages (`PRAGMA max_page_count`), nil for SQLite's default.
  /// A write that would grow the database past it fails with ``VoteStoreError/Kind/full``.
  public var maximumPageCount: Int?
  /// Whether counts are kept in memory, so reads never wait for a database thread (what
  /// `roadmapctl serve` uses). The store is then its database's only writer: it holds an
  /// exclusive `flock` on its data directory while open, and any other process's store
  /// refuses to write the database meanwhile. Off by default.
  public var memoryCache: Bool
  /// The most counters kept in memory with ``memoryCache`` (each about 200 bytes); past it the
  /// cache starts again from empty.
  public var memoryCacheCapacity: Int
  /// The longest a write waits for the writer thread, in milliseconds; nil (the default) for
  /// no limit. Past it, a write the thread had taken fails with
  /// ``VoteStoreError/Kind/timedOut`` (the thread, stuck on a disk that stopped answering, may
  /// still commit it: its outcome is unknown) and one still queued fails with nothing
  /// changed; until the thread lets go, further writes fail at once. What a server
  /// wants, so that no request waits on a stalled disk (`roadmapctl serve`: 30,000); not a
  /// command that runs one long import.
  public var answerDeadlineMilliseconds: Int?

  /// Creates options; every parameter has the default documented on its property.
  public init(
    startupCheck: StartupCheck = .automatic, busyTimeoutMilliseconds: Int = 5000,
    readConnections: Int = 2, maximumBatchSize: Int = 1000, maximumPageCount: Int? = nil,
    memoryCache: Bool = false, memoryCacheCapacity: Int = 250_000,
    answerDeadlineMilliseconds: Int? = nil
  ) {
    self.startupCheck = startupCheck
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    self.readConnections = readConnections
    self.maximumBatchSize = maximumBatchSize
    self.maximumPageCount = maximumPageCount
    self.memoryCache = memoryCache
    self.memoryCacheCapacity = memoryCacheCapacity
    self.answerDeadlineMilliseconds = answerDeadlineMilliseconds
  }
}
