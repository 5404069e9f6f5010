import HTTPServer

/// The common headers of answers (``CounterService/commonHeaders(xPath:origin:after:)`` after
/// their `Content-Type`), by `X-Path` and content type, each encoded once
/// (``HTTPHeaders/preEncoded()``).
///
/// Nearly every answer carries the same five fields and one of a few `X-Path` values (the
/// counters being voted on and read), so building and checking them again for every answer
/// is work thrown away. Bounded: only `X-Path` values as short as valid names make are kept,
/// and the table is emptied when it is full, so hostile paths cannot grow it.
final class CommonHeaderCache: Sendable {
  /// Most entries held before the table is emptied.
  static let capacity = 512
  /// Longest `X-Path` kept: `/`, a 64-character namespace, `/`, a 64-character key.
  static let maxXPathBytes = 130

  private struct Key: Hashable {
    var xPath: String
    var contentType: String
  }

  private let origin: String
  private let table = Locked([Key: HTTPHeaders]())

  /// A cache for answers carrying `Access-Control-Allow-Origin: origin`.
  init(origin: String) {
    self.origin = origin
  }

  /// The headers of an answer of `contentType` for `xPath`: the same fields, in the same
  /// order, as ``CounterService/commonHeaders(xPath:origin:after:)`` gives.
  func headers(xPath: String, contentType: String) -> HTTPHeaders {
    guard xPath.utf8.count <= CommonHeaderCache.maxXPathBytes else {
      return make(xPath: xPath, contentType: contentType)
    }
    let key = Key(xPath: xPath, contentType: contentType)
    if let known = table.withLock({ $0[key] }) { return known }
    let made = make(xPath: xPath, contentType: contentType).preEncoded()
    table.withLock { table in
      if table.count >= CommonHeaderCache.capacity { table.removeAll(keepingCapacity: true) }
      table[key] = made
    }
    return made
  }

  /// How many entries the table holds (for tests).
  var count: Int { table.withLock { $0.count } }

  private func make(xPath: String, contentType: String) -> HTTPHeaders {
    HTTPHeaders(
      CounterService.commonHeaders(
        xPath: xPath, origin: origin, after: (name: "Content-Type", value: contentType)))
  }
}
