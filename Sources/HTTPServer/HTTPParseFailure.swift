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

  init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
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
