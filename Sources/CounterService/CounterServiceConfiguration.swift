import HTTPServer

/// Everything that shapes how ``CounterService`` answers, with documented defaults.
public struct CounterServiceConfiguration: Sendable {
  /// The token that unlocks admin calls: the board API's (`/api/v1/…`, `Authorization: Bearer
  /// T`), `/set` on any key and counterapi `/set` (also `?token=T`); nil means no admin access
  /// at all, and the board's admin calls say so (``CounterService/noAdminTokenMessage``).
  public var adminToken: String?
  /// Keys created by `/hit` get the original countapi bounds [0, 1] instead of [-1, 1],
  /// which makes the Roadmap package's unvote (`/update?amount=-1`) answer 403.
  public var strictCountapi: Bool
  /// Refuse anonymous votes (`/hit`, `/update`, `/up`, `/down` without a voter id) with 403.
  public var requireVoter: Bool
  /// Take the client address from the last `X-Forwarded-For` entry (the one the nearest
  /// proxy added). Turn on only behind a reverse proxy, or clients can pick their address.
  public var trustProxy: Bool
  /// The per-client limit for reads. Default: 1,200 a minute, bursts of 600, so a board
  /// of several hundred features loads at once with one request per row.
  public var readLimit: RateLimit
  /// The per-client limit for writes. Default: 60 a minute, bursts of 30.
  public var writeLimit: RateLimit
  /// How many counters one client address (an IPv6 client per /64) may create with
  /// countapi's `/hit` and `/create` and counterapi's `/up` and `/down`, apart from the write
  /// limit: beyond it, 429 with `Retry-After`. Requests with the admin token, the board API
  /// and votes on counters that exist are not limited by it. Default: 1,000 a day, all at
  /// once after a quiet day (``RateLimit/perDay(_:)``): the counters of an app are made once,
  /// by whoever votes first on each feature, so no client of an app needs more; one that
  /// makes random keys is held to about 150 KB a day.
  public var createLimit: RateLimit = .perDay(1000)
  /// The most counters the store may hold for a request of the kinds ``createLimit`` names to
  /// make another; at the ceiling such a request is refused with 507 and a line in the log,
  /// while votes on counters that exist, requests with the admin token, the board API, and
  /// `votes import` and `restore` go on. 0: no ceiling. Default 1,000,000 (about 150 MB of
  /// counters), far above what apps use, and a bound on what random keys can take from the
  /// disk, from however many addresses.
  public var maxCounters: Int = 1_000_000
  /// The most client addresses the rate limiter remembers (per table). Default 10,000.
  public var maxTrackedClients: Int
  /// The `Access-Control-Allow-Origin` value on every answer. Default `*`.
  public var corsOrigin: String
  /// The most keys one `/counts` request may ask for. Default 500.
  public var maxBatchKeys: Int
  /// Log one line per request through ``log``.
  public var accessLog: Bool
  /// The query parameters whose values no log line shows (compared case-insensitively).
  /// Default: `HTTPServer`'s `QueryRedaction.defaultParameters` (the admin `token`,
  /// `voter` ids, `access_token`, `password`, `secret`). Header fields are never logged.
  public var redactedQueryParameters: Set<String>
  /// The shortest time between two store error lines, in seconds: the first failure of a
  /// burst is logged at once, the rest summarized (how many, and the last) at most once per
  /// interval. Every failure is still counted in `roadmap_store_errors_total`. Default 10.
  public var storeErrorLogInterval: Double
  /// How long, in seconds, a store check that passed answers `/healthz` (unless real writes
  /// fail meanwhile). The check is a durable write and `/healthz` is open to anyone, unlimited,
  /// so without this every request wrote to the disk. Default 1: a monitor asking less often
  /// than once a second gets a fresh check every time; 0 checks on every request.
  public var healthCheckReuseSeconds: Double = 1
  /// How long, in seconds, the store's figures `/stats` reports (`keys_created`,
  /// `keys_updated`) are reused before they are counted again: counting them reads whole
  /// tables, and `/stats` is open to anyone. Default 5; 0 counts on every request.
  public var statisticsReuseSeconds: Double = 5
  /// The version `/stats` reports.
  public var version: String
  /// Where log lines go (store failures, and requests with ``accessLog``). Default: stderr.
  public var log: @Sendable (String) -> Void

  /// Creates a configuration; every argument has a documented default.
  public init(
    adminToken: String? = nil, strictCountapi: Bool = false, requireVoter: Bool = false,
    trustProxy: Bool = false, readLimit: RateLimit = .perMinute(1200),
    writeLimit: RateLimit = .perMinute(60), maxTrackedClients: Int = 10_000,
    corsOrigin: String = "*", maxBatchKeys: Int = 500, accessLog: Bool = false,
    redactedQueryParameters: Set<String> = QueryRedaction.defaultParameters,
    storeErrorLogInterval: Double = 10,
    version: String = "0.1.0", log: @escaping @Sendable (String) -> Void = StandardError.write
  ) {
    self.adminToken = adminToken.flatMap { $0.isEmpty ? nil : $0 }
    self.strictCountapi = strictCountapi
    self.requireVoter = requireVoter
    self.trustProxy = trustProxy
    self.readLimit = readLimit
    self.writeLimit = writeLimit
    self.maxTrackedClients = maxTrackedClients
    self.corsOrigin = corsOrigin
    self.maxBatchKeys = maxBatchKeys
    self.accessLog = accessLog
    self.redactedQueryParameters = redactedQueryParameters
    self.storeErrorLogInterval = storeErrorLogInterval
    self.version = version
    self.log = log
  }
}
