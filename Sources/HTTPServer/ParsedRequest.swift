/// A request as the parser delivers it, before the server turns it into an ``HTTPRequest``.
struct ParsedRequest: Equatable, Sendable {
  var method: String
  var target: String
  var version: (major: Int, minor: Int)
  var headers: HTTPHeaders
  var body: [UInt8]
  var framing: HTTPRequestParser.BodyFraming
  /// The target holds no `%` and no `?`, so its path is the target itself (what
  /// ``URLComponentsDecoder/split(_:)`` gives it): found while the parser checked its bytes.
  var pathIsTarget = false

  /// Whether the connection stays open after this request (RFC 9112 9.3).
  var keepAlive: Bool {
    var close = false
    var keepAlive = false
    // Straight over the fields: no array of values per request.
    for field in headers.fields where field.name.caseInsensitiveEquals("connection") {
      for token in field.value.split(separator: ",") {
        let t = token.trimmingSpacesAndTabs()
        if t.caseInsensitiveEquals("close") { close = true }
        if t.caseInsensitiveEquals("keep-alive") { keepAlive = true }
      }
    }
    if close { return false }
    return version.minor >= 1 || keepAlive
  }

  /// The `Expect` field: nil when absent, true for `100-continue`, false for anything else.
  var expectsContinue: Bool? {
    guard let value = headers["expect"] else { return nil }
    return value.trimmingSpacesAndTabs().caseInsensitiveEquals("100-continue")
  }

  static func == (lhs: ParsedRequest, rhs: ParsedRequest) -> Bool {
    lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
      && lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.framing == rhs.framing
  }
}
