/// What a route produced, before the common headers and JSONP wrapping are added.
struct Reply: Sendable {
  var status: Int
  var body: String
  var contentType = Reply.jsonType
  /// Whether `?callback=` may wrap this body (JSON answers only).
  var wrappable = true
  var headers: [(name: String, value: String)] = []

  /// The content type of a JSON answer.
  static let jsonType = "application/json; charset=utf-8"

  /// A JSON answer.
  static func json(_ body: String, status: Int = 200) -> Reply {
    Reply(status: status, body: body)
  }
}

/// Which protocol's error shape a route uses.
enum Dialect: Sendable {
  /// countapi.xyz and our own routes: `{"error":"…"}`.
  case countapi
  /// counterapi.dev v1: `{"code":N,"message":"…"}`.
  case counterapi

  /// An error answer in this dialect.
  func error(_ status: Int, _ message: String) -> Reply {
    var json = JSONText()
    switch self {
    case .countapi:
      json.string("error", message)
    case .counterapi:
      json.int("code", Int64(status))
      json.string("message", message)
    }
    return .json(json.object, status: status)
  }
}
