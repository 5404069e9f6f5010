import HTTPServer

/// The common headers of answers (``CounterService/commonHeaders(xPath:origin:after:)`` after
/// their `Content-Type`), by what their `X-Path` names and by content type, each encoded once
/// (``HTTPHeaders/preEncoded()``).
///
/// Nearly every answer carries the same five fields and one of a few `X-Path` values (the
/// counters being voted on and read), so building the `X-Path` and checking the fields again
/// for every answer is work thrown away. Bounded: only `X-Path` values as short as valid
/// names make are kept, and the table is emptied when it is full, so hostile paths cannot
/// grow it.
final class CommonHeaderCache: Sendable {
  /// Most entries held before the table is emptied.
  static let capacity = 512
  /// Longest `X-Path` kept: `/`, a 64-character namespace, `/`, a 64-character key.
  static let maxXPathBytes = 130

  /// What an answer's `X-Path` says.
  enum XPath: Hashable, Sendable {
    /// A keyed route's counter: `/namespace/key`.
    case counter(namespace: String, key: String)
    /// Any other route: its path.
    case path(String)

    /// The header's value.
    var text: String {
      switch self {
      case .counter(let namespace, let key): "/\(namespace)/\(key)"
      case .path(let path): path
      }
    }

    /// The value's length in bytes, without building it.
    var byteCount: Int {
      switch self {
      case .counter(let namespace, let key): 2 + namespace.utf8.count + key.utf8.count
      case .path(let path): path.utf8.count
      }
    }
  }

  private struct Entry {
    var contentType: String
    var headers: HTTPHeaders
  }

  private struct State {
    var table: [XPath: [Entry]] = [:]
    // The entry given last, asked again first: a run of answers for one counter (a round of
    // votes) then needs no hashing. Kept as plain fields, compared in place.
    var lastXPath = XPath.path("")
    var lastContentType = ""
    var lastHeaders: HTTPHeaders?

    mutating func remember(_ xPath: XPath, _ entry: Entry) {
      lastXPath = xPath
      lastContentType = entry.contentType
      lastHeaders = entry.headers
    }
  }

  private let origin: String
  private let state = Locked(State())

  /// A cache for answers carrying `Access-Control-Allow-Origin: origin`.
  init(origin: String) {
    self.origin = origin
  }

  /// The headers of an answer of `contentType` for `xPath`: the same fields, in the same
  /// order, as ``CounterService/commonHeaders(xPath:origin:after:)`` gives.
  func headers(_ xPath: XPath, contentType: String) -> HTTPHeaders {
    guard xPath.byteCount <= CommonHeaderCache.maxXPathBytes else {
      return make(xPath.text, contentType)
    }
    let known = state.withLock { state -> HTTPHeaders? in
      if state.lastHeaders != nil && state.lastContentType == contentType
        && state.lastXPath == xPath
      {
        return state.lastHeaders
      }
      guard let entry = state.table[xPath]?.first(where: { $0.contentType == contentType })
      else { return nil }
      state.remember(xPath, entry)
      return entry.headers
    }
    if let known { return known }
    let entry = Entry(
      contentType: contentType, headers: make(xPath.text, contentType).preEncoded())
    state.withLock { state in
      if state.table.count >= CommonHeaderCache.capacity {
        state.table.removeAll(keepingCapacity: true)
      }
      state.table[xPath, default: []].append(entry)
      state.remember(xPath, entry)
    }
    return entry.headers
  }

  /// How many `X-Path` values the table holds (for tests).
  var count: Int { state.withLock { $0.table.count } }

  private func make(_ xPath: String, _ contentType: String) -> HTTPHeaders {
    HTTPHeaders(
      CounterService.commonHeaders(
        xPath: xPath, origin: origin, after: (name: "Content-Type", value: contentType)))
  }
}
