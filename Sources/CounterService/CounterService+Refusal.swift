import HTTPServer
import VoteFirstAPI

extension CounterService {
  /// The shaper for `HTTPServerConfiguration.refusal`: the HTTP server's own refusal of a
  /// body over its limit (413, the one refusal whose route is known) in that route's shape,
  /// with the service's common headers (CORS among them, so a browser can read the answer).
  ///
  /// - the VoteFirst API (`/api/v1/…`, with boards): `{"error":{"code":"too_large",…}}`;
  /// - counterapi.dev's `/v1/…`: `{"code":413,"message":"…"}`;
  /// - everything else, and every other refusal: nil, the server's own `{"error":"…"}`,
  ///   which is countapi's shape.
  ///
  /// ```swift
  /// configuration.refusal = service.refusal
  /// ```
  public var refusal: @Sendable (HTTPRefusal) -> HTTPResponse? {
    let boards = voteFirst != nil
    let origin = configuration.corsOrigin
    return { refusal in CounterService.answer(refusal, boards: boards, origin: origin) }
  }

  /// `refusal` in its route's shape (see ``refusal``), nil for the server's own.
  static func answer(_ refusal: HTTPRefusal, boards: Bool, origin: String) -> HTTPResponse? {
    guard refusal.status == 413, let head = refusal.head else { return nil }
    let path = head.path
    let message = "the body is larger than this call takes (\(refusal.reason))"
    var response: HTTPResponse
    if boards && VoteFirstRouter.handles(path) {
      var json = JSONText()
      json.string("code", VoteFirstContract.ErrorCode.tooLarge)
      json.string("message", message)
      var outer = JSONText()
      outer.raw("error", json.object)
      response = .json(outer.object, status: refusal.status)
    } else if path.hasPrefix("/v1/") {
      response = HTTPResponse.json(
        Dialect.counterapi.error(refusal.status, message).body, status: refusal.status)
    } else {
      return nil
    }
    decorate(&response, xPath: path, origin: origin)
    return response
  }
}
