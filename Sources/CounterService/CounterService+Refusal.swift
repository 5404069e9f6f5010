import HTTPServer
import VoteFirstAPI

extension CounterService {
  /// The shaper for `HTTPServerConfiguration.refusal`: the HTTP server's own refusals (a
  /// request line or fields too long, a malformed request, a body over its limit, too many
  /// connections) with the service's common headers, CORS among them, so a browser that sent
  /// the request can read why it was refused instead of seeing a network error. A body over
  /// its limit (413, the one refusal whose route is known) comes in that route's shape:
  ///
  /// - the VoteFirst API (`/api/v1/…`, with boards): `{"error":{"code":"too_large",…}}`;
  /// - counterapi.dev's `/v1/…`: `{"code":413,"message":"…"}`;
  /// - everything else, and every other refusal: the server's own `{"error":"…"}`, which is
  ///   countapi's shape.
  ///
  /// ```swift
  /// configuration.refusal = service.refusal
  /// ```
  public var refusal: @Sendable (HTTPRefusal) -> HTTPResponse? {
    let boards = voteFirst != nil
    let origin = configuration.corsOrigin
    return { refusal in CounterService.answer(refusal, boards: boards, origin: origin) }
  }

  /// `refusal` in its route's shape, with the common headers (see ``refusal``).
  static func answer(_ refusal: HTTPRefusal, boards: Bool, origin: String) -> HTTPResponse? {
    let path = refusal.head?.path
    var response: HTTPResponse
    if refusal.status == 413, let path {
      let message = "the body is larger than this call takes (\(refusal.reason))"
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
        response = HTTPResponse.json(
          Dialect.countapi.error(refusal.status, refusal.reason).body, status: refusal.status)
      }
    } else {
      response = HTTPResponse.json(
        Dialect.countapi.error(refusal.status, refusal.reason).body, status: refusal.status)
    }
    decorate(&response, xPath: path ?? "/", origin: origin)
    return response
  }
}
