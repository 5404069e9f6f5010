/// One answered request, as given to ``HTTPServerConfiguration/accessLog``.
///
/// An entry holds no header fields at all, so `Authorization`, `Cookie` and `X-Voter-ID`
/// can never reach a log through it; the values of the query parameters named in
/// ``redactedParameters`` (the admin `token`, the `voter` id, …) are replaced by
/// `[redacted]` in ``line`` and ``redactedTarget``. Needs macOS 13 (iOS 16) or later, for
/// `Duration`; ``QueryRedaction`` does the redacting on every platform.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct AccessLogEntry: Sendable {
  /// The query parameters whose values a log line never shows:
  /// ``QueryRedaction/defaultParameters``.
  public static let defaultRedactedParameters = QueryRedaction.defaultParameters

  /// What a redacted value is written as: ``QueryRedaction/redactedValue``.
  public static let redactedValue = QueryRedaction.redactedValue

  /// The request method (`-` when the request line could not be read).
  public var method: String
  /// The request target as sent (`-` when the request line could not be read). Log
  /// ``redactedTarget`` instead.
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
  /// The query parameters (compared case-insensitively, after percent-decoding the name)
  /// whose values ``line`` hides. Default: ``defaultRedactedParameters``.
  public var redactedParameters: Set<String>

  /// Creates an entry.
  public init(
    method: String, target: String, status: Int, bytes: Int, latency: Duration, peer: String,
    redactedParameters: Set<String> = AccessLogEntry.defaultRedactedParameters
  ) {
    self.method = method
    self.target = target
    self.status = status
    self.bytes = bytes
    self.latency = latency
    self.peer = peer
    self.redactedParameters = redactedParameters
  }

  /// The target with the values of ``redactedParameters`` replaced by `[redacted]`.
  public var redactedTarget: String {
    AccessLogEntry.redact(target, parameters: redactedParameters)
  }

  /// The entry as one log line: `peer "METHOD target" status bytes latency-ms`, with the
  /// target redacted.
  public var line: String {
    let micros =
      latency.components.seconds * 1_000_000 + latency.components.attoseconds
      / 1_000_000_000_000
    let ms = Double(micros) / 1000
    return "\(peer) \"\(method) \(redactedTarget)\" \(status) \(bytes) \(ms)ms"
  }

  /// `target` with the value of every query parameter named in `parameters` replaced by
  /// `[redacted]`: ``QueryRedaction/redact(_:parameters:)``.
  public static func redact(_ target: String, parameters: Set<String>) -> String {
    QueryRedaction.redact(target, parameters: parameters)
  }
}
