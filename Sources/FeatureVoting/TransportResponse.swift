import Foundation

/// One HTTP answer, whatever its status.
public struct TransportResponse: Sendable, Equatable {
  /// The status code.
  public var status: Int
  /// Header fields, names in lower case.
  public var headers: [String: String]
  /// The body.
  public var body: Data

  /// Creates an answer; header names are stored in lower case.
  ///
  /// - Parameters:
  ///   - status: the status code.
  ///   - headers: header fields, any case.
  ///   - body: the body.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    var lowered: [String: String] = [:]
    for (name, value) in headers { lowered[name.lowercased()] = value }
    self.headers = lowered
    self.body = body
  }

  /// The value of header `name`, case-insensitively.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }

  /// `Retry-After` in seconds, when it is a number of seconds (an HTTP date counts from now).
  public var retryAfter: TimeInterval? {
    guard let value = header("retry-after")?.trimmingCharacters(in: .whitespaces) else {
      return nil
    }
    if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    return max(0, date.timeIntervalSinceNow.rounded(.up))
  }
}
