/// Why the parser refused a request, and the status to answer with.
struct HTTPParseFailure: Error, Equatable {
  /// The class of failure; each maps to one status code.
  enum Kind: Equatable {
    case badRequest
    case uriTooLong
    case headersTooLarge
    case payloadTooLarge
    case notImplemented
    case versionNotSupported
  }

  var kind: Kind
  var reason: String
  /// The request's head (without its body) when the failure came after it: a body over
  /// its limit. Not part of equality.
  var request: ParsedRequest?

  init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  static func == (lhs: HTTPParseFailure, rhs: HTTPParseFailure) -> Bool {
    lhs.kind == rhs.kind && lhs.reason == rhs.reason
  }

  /// The response status for this failure.
  var status: Int {
    switch kind {
    case .badRequest: 400
    case .uriTooLong: 414
    case .headersTooLarge: 431
    case .payloadTooLarge: 413
    case .notImplemented: 501
    case .versionNotSupported: 505
    }
  }
}
