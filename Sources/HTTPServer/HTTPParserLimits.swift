/// The parser's share of ``HTTPServerConfiguration``.
struct HTTPParserLimits: Sendable {
  var maxRequestLineBytes = 8192
  var maxHeaderBytes = 32768
  var maxHeaderCount = 100
  /// The body limit of a request `bodyLimit` says nothing about (or when there is none).
  var maxBodyBytes = 1 << 20
  /// The largest limit `bodyLimit` may grant; larger answers are lowered to it.
  var bodyLimitCeiling = 32 << 20
  /// Decides a request's body limit from its head; nil answers mean ``maxBodyBytes``.
  var bodyLimit: (@Sendable (HTTPRequestHead) -> Int?)? = nil

  /// Longest accepted chunk-size line, extensions included.
  static let maxChunkSizeLineBytes = 4096

  /// The body limit of the request whose head is `head`: what ``bodyLimit`` answers, between
  /// 0 and ``bodyLimitCeiling``, or ``maxBodyBytes`` when it answers nil or is not set.
  ///
  /// `head` is only built when there is a decider to ask.
  func bodyLimit(for head: @autoclosure () -> HTTPRequestHead) -> Int {
    guard let bodyLimit, let decided = bodyLimit(head()) else { return maxBodyBytes }
    return min(max(decided, 0), bodyLimitCeiling)
  }
}
