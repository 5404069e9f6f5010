/// Why a mapping, a plan or a status map could not be made.
///
/// A struct with a private code and static members, so that new kinds of failure break no
/// caller. Compare ``kind`` to the static kinds; ``message`` says what went wrong where.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }

    /// A status map that cannot be read or does not make sense.
    public static let invalidStatusMap = Kind("invalid status map")
    /// A VoteFirst export document that cannot be read.
    public static let invalidExport = Kind("invalid export")
    /// Vote counts that could not be read, by feature.
    public static let missingVotes = Kind("missing votes")
    /// Something the plan needs does not exist on the server (a board, a stage).
    public static let notFound = Kind("not found")

    /// The kind's name.
    public var description: String { name }
  }

  /// The kind of failure.
  public let kind: Kind
  /// What failed, in words.
  public let message: String

  private init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// A status map that cannot be used; `message` says why (and where).
  public static func invalidStatusMap(_ message: String) -> SyncError {
    SyncError(.invalidStatusMap, message)
  }

  /// An export document that cannot be read; `message` says why.
  public static func invalidExport(_ message: String) -> SyncError {
    SyncError(.invalidExport, message)
  }

  /// Counts that could not be read; `message` names the features.
  public static func missingVotes(_ message: String) -> SyncError {
    SyncError(.missingVotes, message)
  }

  /// Something missing on the server.
  public static func notFound(_ message: String) -> SyncError {
    SyncError(.notFound, message)
  }

  /// The message.
  public var description: String { message }
}
