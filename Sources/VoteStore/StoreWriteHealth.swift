/// How a store's recent writes went: whether they are failing, and the last failure.
///
/// A store counts every write that reached the database: a success, or a failure of the
/// store itself (``VoteStoreError/isStoreFailure``: disk full, I/O, lost connection,
/// timeout). Refused input (``VoteStoreError/isRefusal``) counts as neither. Writes are
/// *failing* when the latest such write failed, no write has succeeded since, and that
/// failure is less than ``window`` old. One successful write clears it; the probe write of
/// ``VoteStore/checkHealth()`` does not (on a full disk an update of one row may fit where
/// every new counter fails), but its failure counts. ``VoteStore/checkHealth()`` throws the
/// last failure while writes are failing, so `/healthz` answers 503 while writes fail.
public struct StoreWriteHealth: Sendable, Equatable {
  /// How long a write failure keeps the store unhealthy when no write is tried after it:
  /// 60 seconds.
  public static let window: Int64 = 60_000

  /// Whether writes are failing now (see the type's description).
  public var isFailing: Bool
  /// The latest store failure of a write, if any since the store opened.
  public var lastFailure: VoteStoreError?
  /// When ``lastFailure`` happened, in milliseconds since 1970 (UTC).
  public var lastFailureAt: Int64?
  /// When a write last succeeded, in milliseconds since 1970 (UTC).
  public var lastSuccessAt: Int64?
  /// Store failures of writes since the store opened.
  public var failures: Int64

  /// Creates a health report.
  public init(
    isFailing: Bool, lastFailure: VoteStoreError? = nil, lastFailureAt: Int64? = nil,
    lastSuccessAt: Int64? = nil, failures: Int64 = 0
  ) {
    self.isFailing = isFailing
    self.lastFailure = lastFailure
    self.lastFailureAt = lastFailureAt
    self.lastSuccessAt = lastSuccessAt
    self.failures = failures
  }
}
