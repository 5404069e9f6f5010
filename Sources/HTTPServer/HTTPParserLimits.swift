/// The parser's share of ``HTTPServerConfiguration``.
///
/// The values live in one immutable heap object that every copy shares, so the limits cost
/// each connection's parser one reference, however many connections are open; setting a
/// value gives that copy storage of its own.
struct HTTPParserLimits: Sendable {
  /// The values themselves.
  private struct Values: Sendable {
    var maxRequestLineBytes: Int
    var maxHeaderBytes: Int
    var maxHeaderCount: Int
    var maxBodyBytes: Int
    var bodyLimitCeiling: Int
    var bodyLimit: (@Sendable (HTTPRequestHead) -> Int?)?
  }

  /// The shared, never mutated home of ``Values``.
  private final class Storage: Sendable {
    let values: Values
    init(_ values: Values) { self.values = values }
  }

  private var storage: Storage

  /// Limits with every default of ``HTTPServerConfiguration``.
  init(
    maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 32768, maxHeaderCount: Int = 100,
    maxBodyBytes: Int = 1 << 20, bodyLimitCeiling: Int = 32 << 20,
    bodyLimit: (@Sendable (HTTPRequestHead) -> Int?)? = nil
  ) {
    storage = Storage(
      Values(
        maxRequestLineBytes: maxRequestLineBytes, maxHeaderBytes: maxHeaderBytes,
        maxHeaderCount: maxHeaderCount, maxBodyBytes: maxBodyBytes,
        bodyLimitCeiling: bodyLimitCeiling, bodyLimit: bodyLimit))
  }

  private mutating func update(_ change: (inout Values) -> Void) {
    var values = storage.values
    change(&values)
    storage = Storage(values)
  }

  var maxRequestLineBytes: Int {
    get { storage.values.maxRequestLineBytes }
    set { update { $0.maxRequestLineBytes = newValue } }
  }
  var maxHeaderBytes: Int {
    get { storage.values.maxHeaderBytes }
    set { update { $0.maxHeaderBytes = newValue } }
  }
  var maxHeaderCount: Int {
    get { storage.values.maxHeaderCount }
    set { update { $0.maxHeaderCount = newValue } }
  }
  /// The body limit of a request `bodyLimit` says nothing about (or when there is none).
  var maxBodyBytes: Int {
    get { storage.values.maxBodyBytes }
    set { update { $0.maxBodyBytes = newValue } }
  }
  /// The largest limit `bodyLimit` may grant; larger answers are lowered to it.
  var bodyLimitCeiling: Int {
    get { storage.values.bodyLimitCeiling }
    set { update { $0.bodyLimitCeiling = newValue } }
  }
  /// Decides a request's body limit from its head; nil answers mean ``maxBodyBytes``.
  var bodyLimit: (@Sendable (HTTPRequestHead) -> Int?)? {
    get { storage.values.bodyLimit }
    set { update { $0.bodyLimit = newValue } }
  }

  /// Longest accepted chunk-size line, extensions included.
  static let maxChunkSizeLineBytes = 4096

  /// The body limit of the request whose head is `head`: what ``bodyLimit`` answers, between
  /// 0 and ``bodyLimitCeiling``, or ``maxBodyBytes`` when it answers nil or is not set.
  ///
  /// `head` is only built when there is a decider to ask.
  func bodyLimit(for head: @autoclosure () -> HTTPRequestHead) -> Int {
    let values = storage.values
    guard let bodyLimit = values.bodyLimit, let decided = bodyLimit(head()) else {
      return values.maxBodyBytes
    }
    return min(max(decided, 0), values.bodyLimitCeiling)
  }
}
