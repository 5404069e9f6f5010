/// One answered request, as given to ``HTTPServerConfiguration/accessLog``.
public struct AccessLogEntry: Sendable {
  /// The request method (`-` when the request line could not be read).
  public var method: String
  /// The request target as sent (`-` when the request line could not be read).
  public var target: String
  /// The response status.
  public var status: Int
  /// The response body size in bytes (what `Content-Length` says, also for `HEAD`).
  public var bytes: Int
  /// Time from the complete request (head and body read) to the handler's answer; zero for
  /// requests the server refused itself.
  public var latency: Duration
  /// The client address (`127.0.0.1`, `::1`).
  public var peer: String

  /// Creates an entry.
  public init(
    method: String, target: String, status: Int, bytes: Int, latency: Duration, peer: String
  ) {
    self.method = method
    self.target = target
    self.status = status
    self.bytes = bytes
    self.latency = latency
    self.peer = peer
  }

  /// The entry as one log line: `peer "METHOD target" status bytes latency-ms`.
  public var line: String {
    let micros =
      latency.components.seconds * 1_000_000 + latency.components.attoseconds
      / 1_000_000_000_000
    let ms = Double(micros) / 1000
    return "\(peer) \"\(method) \(target)\" \(status) \(bytes) \(ms)ms"
  }
}
