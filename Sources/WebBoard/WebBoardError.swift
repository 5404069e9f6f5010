/// A failure a ``WebBoardSource`` reports in terms of what the page answers.
///
/// A struct with a private code and static members, so that cases can be added.
public struct WebBoardError: Error, Sendable, Hashable, CustomStringConvertible {
  private enum Code: Hashable, Sendable {
    case notFound
    case badRequest
    case unavailable
  }

  private let code: Code
  /// What went wrong, in words a reader of the page understands.
  public let message: String

  private init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// Nothing by that name (project, board, feature): 404.
  public static func notFound(_ message: String) -> WebBoardError { .init(.notFound, message) }
  /// A filter or cursor the board cannot read: 400.
  public static func badRequest(_ message: String) -> WebBoardError { .init(.badRequest, message) }
  /// The store could not answer: 503.
  public static func unavailable(_ message: String) -> WebBoardError {
    .init(.unavailable, message)
  }

  /// The HTTP status the page answers with.
  public var status: Int {
    switch code {
    case .notFound: 404
    case .badRequest: 400
    case .unavailable: 503
    }
  }

  /// The status and message.
  public var description: String { "\(status): \(message)" }
}
