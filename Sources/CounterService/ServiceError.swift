import VoteStore

/// A refusal or failure of the counter service, with the status and message it answers with.
///
/// A struct with a private code and static members, so new cases break no caller. Each
/// case says whether it is a store failure (counted in `roadmap_store_errors_total`, logged,
/// and remembered by `/healthz` when a write hits it) or a refusal of the request itself.
struct ServiceError: ResponseError, CustomStringConvertible {
  private enum Code: Sendable, Equatable {
    case storeUnavailable
    case wouldLeaveRange
    case storeRefused
    case outOfRange
    case badRequest
    case unexpected
  }

  private let code: Code
  /// The HTTP status of the answer.
  let status: Int
  /// The message of the answer's body.
  let message: String
  /// What caused it (the store's error, the unexpected error), for the log; never sent.
  let cause: String?

  private init(_ code: Code, _ status: Int, _ message: String, cause: String? = nil) {
    self.code = code
    self.status = status
    self.message = message
    self.cause = cause
  }

  /// The store failed (locked, damaged, full, closed, I/O, timed out): 503 with
  /// `Retry-After: 1`.
  ///
  /// For a write the body says nothing was changed, except where the store cannot know
  /// (``VoteStoreError/outcomeIsUnknown``): it then says the outcome is unknown. A `read`
  /// changes nothing either way, and its body says only what failed.
  static func storeUnavailable(_ error: VoteStoreError, read: Bool = false) -> ServiceError {
    if read {
      return ServiceError(
        .storeUnavailable, 503, readFailure(error.kind), cause: error.description)
    }
    let message =
      switch error.kind {
      case .timedOut:
        "the vote store did not answer in time; the change may or may not have been made"
      case .notDurable:
        "the vote store could not make the change durable; it may or may not have been made"
      case .outcomeUnknown:
        "the vote store lost its database connection during the write; the change may or may "
          + "not have been made"
      default: "the vote store is unavailable; nothing was changed"
      }
    return ServiceError(.storeUnavailable, 503, message, cause: error.description)
  }

  /// What a failed read's 503 says for a store error of `kind` (a read changes nothing, so
  /// only what failed); the counting routes and the board API say it alike.
  static func readFailure(_ kind: VoteStoreError.Kind) -> String {
    switch kind {
    case .timedOut: "the vote store did not answer in time"
    case .outcomeUnknown: "the vote store lost its database connection"
    default: "the vote store is unavailable"
    }
  }

  /// A write whose result would leave ±``CounterRoutes/maxMagnitude``: 409, nothing changed.
  ///
  /// - Parameters:
  ///   - value: the count now.
  ///   - amount: what the write would add (or the value it would set).
  static func wouldLeaveRange(value: Int64, amount: Int64) -> ServiceError {
    ServiceError(
      .wouldLeaveRange, 409,
      "adding \(amount) to \(value) would overflow: a count stays within "
        + "±\(CounterRoutes.maxMagnitude); nothing was changed")
  }

  /// The store refused the write (``VoteStoreError/isRefusal``), nothing changed; not a
  /// store failure. 409 when it would take a count out of range (``VoteStoreError/Kind/outOfRange``:
  /// the same request may succeed on another count), 400 when the input breaks a rule the
  /// store enforces itself (``VoteStoreError/Kind/invalid``).
  static func storeRefused(_ error: VoteStoreError) -> ServiceError {
    ServiceError(
      .storeRefused, error.kind == .outOfRange ? 409 : 400,
      "the write was refused: \(error.publicDetail ?? error.message); nothing was changed",
      cause: error.description)
  }

  /// A number in the request outside what the parameter allows: 400.
  ///
  /// - Parameters:
  ///   - name: the query parameter.
  ///   - range: what it must be, in words (`an integer from 0 to 9007199254740991`).
  static func outOfRange(_ name: String, must range: String) -> ServiceError {
    ServiceError(.outOfRange, 400, "\(name) must be \(range)")
  }

  /// A request parameter that is missing or malformed: 400 with `message`.
  static func badRequest(_ message: String) -> ServiceError {
    ServiceError(.badRequest, 400, message)
  }

  /// Anything a route threw that nobody expected: 500, logged with its description.
  static func unexpected(_ error: any Error) -> ServiceError {
    ServiceError(.unexpected, 500, "internal server error", cause: String(describing: error))
  }

  /// Whether this is a store failure (503), as opposed to a refusal of the request.
  var isStoreFailure: Bool { code == .storeUnavailable }

  /// Whether this error was not expected at all (500).
  var isUnexpected: Bool { code == .unexpected }

  /// The answer in `dialect`'s error shape; a store failure adds `Retry-After: 1`.
  func reply(in dialect: Dialect) -> Reply {
    var reply = dialect.error(status, message)
    if isStoreFailure { reply.headers.append((name: "Retry-After", value: "1")) }
    return reply
  }

  /// The status, message and cause.
  var description: String {
    "\(status) \(message)" + (cause.map { " (\($0))" } ?? "")
  }
}

extension ServiceError {
  /// What a route body's thrown `error` is answered with.
  ///
  /// An error that knows its answer (``ResponseError``) keeps it; a ``VoteStoreError`` is a
  /// store failure (503), except a refusal (``VoteStoreError/isRefusal``), which is the store
  /// refusing the write (409 `out-of-range`, 400 `invalid`); anything else is unexpected (500).
  /// `read` says the request was a read, whose 503 says nothing of changes.
  static func answer(for error: any Error, read: Bool = false) -> any ResponseError {
    switch error {
    case let error as any ResponseError: return error
    case let error as VoteStoreError:
      return error.isRefusal ? storeRefused(error) : storeUnavailable(error, read: read)
    default: return unexpected(error)
    }
  }
}
