/// A request the server refuses by itself, before any handler sees it, for
/// ``HTTPServerConfiguration/refusal`` to answer in a protocol's own error shape.
public struct HTTPRefusal: Sendable {
  /// The status the server answers with (400, 408, 413, 414, 417, 431, 501, 505, or 503 to
  /// a connection over ``HTTPServerConfiguration/maxConnections`` or
  /// ``HTTPServerConfiguration/maxConnectionsPerAddress``).
  public var status: Int
  /// Why, in words (`"Content-Length exceeds 1048576 bytes"`).
  public var reason: String
  /// The request's head when it was read whole before the refusal (a body over its limit),
  /// else nil: for a malformed or oversized head there is no route to tell.
  public var head: HTTPRequestHead?

  /// Creates a refusal.
  public init(status: Int, reason: String, head: HTTPRequestHead? = nil) {
    self.status = status
    self.reason = reason
    self.head = head
  }
}
