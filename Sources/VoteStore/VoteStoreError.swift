/// A store failure, or a write the store refuses.
///
/// A struct with a kind and static members, so that new kinds of failure break no caller.
/// Two kinds are the caller's doing and say so with ``isRefusal``: ``Kind/invalid`` (bad
/// input, e.g. an import file) and ``Kind/outOfRange`` (a write that would take a count or
/// bounds outside ±(2^53−1), see ``CounterLimits``). A service answers those with a 4xx;
/// every other kind means the store could not do its work (503).
public struct VoteStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of failure.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    fileprivate let name: String
    /// The database is locked by another process for longer than the busy timeout.
    public static let busy = Kind(name: "busy")
    /// The database file is damaged or not a database.
    public static let corrupt = Kind(name: "corrupt")
    /// The disk or the database is full.
    public static let full = Kind(name: "full")
    /// An I/O error, a permission problem, or a lost connection.
    public static let io = Kind(name: "io")
    /// The database did not answer within the store's time bound (a frozen or unreachable
    /// server); the call's outcome is unknown to the caller, who was not told it succeeded.
    public static let timedOut = Kind(name: "timed-out")
    /// The commit's fsync failed: the change may or may not be in the database after a
    /// restart (its log frames were written, maybe not to the disk), so its outcome is
    /// unknown to the caller. The store then takes no more writes (``io``) until reopened.
    public static let notDurable = Kind(name: "not-durable")
    /// The connection to the database was lost after the write's first statement that may
    /// change data was sent (a `COMMIT` whose answer never came, say): the change may or may
    /// not have been made, so its outcome is unknown to the caller. A connection lost before
    /// that (connecting, or at `BEGIN`) is ``io``: nothing was changed.
    public static let outcomeUnknown = Kind(name: "outcome-unknown")
    /// The store was closed.
    public static let closed = Kind(name: "closed")
    /// A concurrent write got in first and the database refused this one for it (PostgreSQL:
    /// a unique key another transaction had just taken, a serialization failure, a
    /// deadlock); nothing was changed. The PostgreSQL stores retry such a write a few times
    /// before they report one; the same request made again may succeed.
    public static let conflict = Kind(name: "conflict")
    /// The input (an import file, a key) is invalid.
    public static let invalid = Kind(name: "invalid")
    /// The write would take a count, or an update bound, outside ±(2^53−1); nothing changed.
    public static let outOfRange = Kind(name: "out-of-range")
    /// The database is not one this build can use: written by a newer version, an empty
    /// file, or another program's database. Nothing was changed.
    public static let incompatible = Kind(name: "incompatible")
    /// Anything else the database reported.
    public static let other = Kind(name: "other")
    /// The kind's name.
    public var description: String { name }
  }

  /// The kind of failure.
  public var kind: Kind
  /// What failed, with the database's own message.
  public var message: String
  /// What a client may be told of this failure when it says more than its kind's phrase,
  /// without a path or the database's text; nil for the phrase (see ``publicMessage``).
  public var publicDetail: String?

  /// Creates an error; `publicDetail` is what a client may be told instead of the kind's
  /// phrase (no path, no database text).
  public init(_ kind: Kind, _ message: String, publicDetail: String? = nil) {
    self.kind = kind
    self.message = message
    self.publicDetail = publicDetail
  }

  /// What a client may be told: ``publicDetail``, else a fixed phrase for the kind
  /// (`database or disk is full`). Never a path or the database's own message, which
  /// ``message`` holds for the server's log: `/healthz` answers anyone.
  public var publicMessage: String {
    if let publicDetail { return publicDetail }
    switch kind {
    case .busy: return "the database is locked by another process"
    case .corrupt: return "the database is damaged"
    case .full: return "database or disk is full"
    case .io: return "the database cannot be read or written"
    case .timedOut: return "the database did not answer in time"
    case .notDurable: return "a commit could not be made durable"
    case .closed: return "the vote store is closed"
    case .incompatible: return "the database is not one this build can use"
    case .conflict: return "a concurrent change to the same data got in first; nothing was changed"
    default: return "the database reported an error"
    }
  }

  /// A store that was closed.
  public static let closed = VoteStoreError(.closed, "the vote store is closed")

  /// A write refused because it would leave the safe integer range; `message` says which
  /// number and why.
  public static func outOfRange(_ message: String) -> VoteStoreError {
    VoteStoreError(.outOfRange, message)
  }

  /// Whether the store refused the call because of its input (``Kind/invalid``,
  /// ``Kind/outOfRange``) rather than failing to do its work; nothing was changed.
  public var isRefusal: Bool { kind == .invalid || kind == .outOfRange }

  /// Whether the caller cannot know if the change was made (``Kind/timedOut``,
  /// ``Kind/notDurable``, ``Kind/outcomeUnknown``): a retry may count it twice, and not
  /// retrying may lose it.
  public var outcomeIsUnknown: Bool {
    kind == .timedOut || kind == .notDurable || kind == .outcomeUnknown
  }

  /// Whether this is a failure of the store itself (disk, database, connection), the kind
  /// of error that counts against its health; false for refusals, a closed store and a
  /// conflict with a concurrent write (``Kind/conflict``).
  public var isStoreFailure: Bool { !isRefusal && kind != .closed && kind != .conflict }

  /// `kind: message`.
  public var description: String { "\(kind): \(message)" }
}
