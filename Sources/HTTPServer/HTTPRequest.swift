/// An HTTP request method, such as `GET` or `POST`.
///
/// A struct rather than an enum so that methods the server does not route still parse
/// and can be answered with 405 or 501.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The method token exactly as it appeared on the request line.
  public var rawValue: String

  /// Creates a method from its token.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// `GET`.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `DELETE`.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`.
  public static let options = HTTPMethod(rawValue: "OPTIONS")

  /// The method token.
  public var description: String { rawValue }
}

/// An ordered list of HTTP header fields with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  /// The fields in the order they were received or added.
  public private(set) var fields: [(name: String, value: String)] {
    didSet { wire = nil }
  }
  /// The fields as the response encoder writes them, when worked out once by
  /// ``preEncoded()``; any change to the fields drops it.
  var wire: WireFields?

  /// Creates a header list from name/value pairs, keeping their order.
  public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

  /// Creates a header list from a dictionary literal, keeping the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The first value of the field named `name` (case-insensitive), or nil.
  public subscript(name: String) -> String? {
    fields.first { $0.name.caseInsensitiveEquals(name) }?.value
  }

  /// Every value of the field named `name` (case-insensitive), in order.
  public func values(for name: String) -> [String] {
    fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
  }

  /// Appends a field, keeping any existing field of the same name.
  public mutating func add(name: String, value: String) {
    fields.append((name: name, value: value))
  }

  /// Replaces every field named `name` with one field holding `value`.
  public mutating func replaceOrAdd(name: String, value: String) {
    fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    fields.append((name: name, value: value))
  }

  /// Removes every field named `name`.
  public mutating func remove(name: String) {
    fields.removeAll { $0.name.caseInsensitiveEquals(name) }
  }

  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }

  /// Two header lists are equal when they hold the same fields in the same order.
  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
  }
}

extension String {
  /// Whether the two strings are equal when ASCII letters are compared without case.
  func caseInsensitiveEquals(_ other: String) -> Bool {
    let a = self.utf8
    let b = other.utf8
    guard a.count == b.count else { return false }
    // Over the strings' contiguous bytes (native and small strings have them): stepping two
    // UTF-8 views in a zip cost about a hundred instructions a byte.
    if let equal = a.withContiguousStorageIfAvailable({ x in
      b.withContiguousStorageIfAvailable { y in String.asciiCaseInsensitiveEqual(x, y) }
    }), let equal {
      return equal
    }
    for (x, y) in zip(a, b) {
      let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
      let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
      if lx != ly { return false }
    }
    return true
  }

  /// Byte-wise ASCII case-insensitive equality of two buffers of the same length.
  private static func asciiCaseInsensitiveEqual(
    _ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    for i in 0..<x.count {
      let lx = (x[i] >= 65 && x[i] <= 90) ? x[i] | 0x20 : x[i]
      let ly = (y[i] >= 65 && y[i] <= 90) ? y[i] | 0x20 : y[i]
      if lx != ly { return false }
    }
    return true
  }
}

/// A parsed HTTP request as handlers see it.
///
/// A value type; what a handler rarely changes (the target, path, query, headers, body and
/// peer) is kept in one shared, copy-on-write box, so passing a request along (to the router,
/// a route, a batch of votes) costs one retain instead of one per field.
public struct HTTPRequest: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// The HTTP version as `(major, minor)`, e.g. `(1, 1)`.
  public var version: (major: Int, minor: Int)
  private var storage: Storage
  /// The path parameters in route order (what ``pathParameters`` shows).
  var parameterList: [(name: String, value: String)]

  /// The request target exactly as sent (path and query, still percent-encoded).
  public var target: String {
    get { storage.target }
    set { unique().target = newValue }
  }
  /// What is wrong with the target's percent-encoding, or nil: an escape that is not `%` and
  /// two hex digits, or escapes that decode to bytes that are not UTF-8 (`the path has …`,
  /// `the query has …`). ``path`` and the query items keep the first as written and repair
  /// the second (U+FFFD), so a route that must tell names apart refuses such a target.
  public var percentEncodingProblem: String? {
    URLComponentsDecoder.encodingProblem(in: target)
  }
  /// The percent-decoded path, without the query.
  public var path: String {
    get { storage.path }
    set { unique().path = newValue }
  }
  /// The query parameters, percent-decoded (`+` read as a space), in order; a name may repeat.
  public var queryItems: [(name: String, value: String)] {
    get { storage.queryItems }
    set { unique().queryItems = newValue }
  }
  /// The header fields.
  public var headers: HTTPHeaders {
    get { storage.headers }
    set { unique().headers = newValue }
  }
  /// The request body (already de-chunked).
  public var body: [UInt8] {
    get { storage.body }
    set { unique().body = newValue }
  }
  /// The peer's address as text (`127.0.0.1`, `::1`), or empty when there is no socket.
  public var remoteAddress: String {
    get { storage.remoteAddress }
    set { unique().remoteAddress = newValue }
  }
  /// Path parameters filled in by the ``Router`` (`:ns` → `"ns"`).
  ///
  /// Kept as a short list (a route has a few parameters), so that matching a route neither
  /// hashes nor allocates a dictionary; a name set twice keeps its last value.
  public var pathParameters: [String: String] {
    get { Dictionary(parameterList, uniquingKeysWith: { _, last in last }) }
    set { parameterList = newValue.map { (name: $0.key, value: $0.value) } }
  }

  /// Creates a request. `path` and `queryItems` are derived from `target` when not given.
  public init(
    method: HTTPMethod, target: String, version: (major: Int, minor: Int) = (1, 1),
    headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], remoteAddress: String = ""
  ) {
    self.method = method
    self.version = version
    self.parameterList = []
    let (path, query) = URLComponentsDecoder.split(target)
    storage = Storage(
      target: target, path: path, queryItems: query, headers: headers, body: body,
      remoteAddress: remoteAddress)
  }

  /// A request from the parser: `pathIsTarget` says the target holds no `%` and no `?`, so
  /// the path is the target and there is no query, without looking at its bytes again.
  init(
    method: HTTPMethod, target: String, version: (major: Int, minor: Int), headers: HTTPHeaders,
    body: [UInt8], remoteAddress: String, pathIsTarget: Bool
  ) {
    self.method = method
    self.version = version
    self.parameterList = []
    let (path, query) = pathIsTarget ? (target, []) : URLComponentsDecoder.split(target)
    storage = Storage(
      target: target, path: path, queryItems: query, headers: headers, body: body,
      remoteAddress: remoteAddress)
  }

  /// The box, copied first if another request shares it.
  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    return storage
  }

  /// The fields behind the accessors; shared between copies until one of them changes.
  private final class Storage: @unchecked Sendable {
    var target: String
    var path: String
    var queryItems: [(name: String, value: String)]
    var headers: HTTPHeaders
    var body: [UInt8]
    var remoteAddress: String

    init(
      target: String, path: String, queryItems: [(name: String, value: String)],
      headers: HTTPHeaders, body: [UInt8], remoteAddress: String
    ) {
      self.target = target
      self.path = path
      self.queryItems = queryItems
      self.headers = headers
      self.body = body
      self.remoteAddress = remoteAddress
    }

    func copy() -> Storage {
      Storage(
        target: target, path: path, queryItems: queryItems, headers: headers, body: body,
        remoteAddress: remoteAddress)
    }
  }

  /// The first value of the query parameter `name`, or nil.
  public func query(_ name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }

  /// The value of the path parameter `name` set by the router, or nil.
  public func parameter(_ name: String) -> String? {
    // From the end, so a name set twice gives its last value.
    var index = parameterList.count
    while index > 0 {
      index -= 1
      if parameterList[index].name == name { return parameterList[index].value }
    }
    return nil
  }
}

/// Splits a request target into a decoded path and decoded query items.
enum URLComponentsDecoder {
  static func split(_ target: String) -> (String, [(name: String, value: String)]) {
    // Most targets have neither escapes nor a query: then the path is the target itself.
    // One pass over the bytes for both.
    let plain =
      target.utf8.withContiguousStorageIfAvailable { bytes in
        !bytes.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "?") }
      } ?? false
    if plain { return (target, []) }
    let utf8 = Array(target.utf8)
    let q = utf8.firstIndex(of: UInt8(ascii: "?"))
    let pathBytes = q.map { Array(utf8[..<$0]) } ?? utf8
    let path = percentDecode(pathBytes, plusAsSpace: false)
    var items: [(name: String, value: String)] = []
    if let q {
      let query = utf8[(q + 1)...]
      for part in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
        if let eq = part.firstIndex(of: UInt8(ascii: "=")) {
          items.append(
            (
              name: percentDecode(Array(part[..<eq]), plusAsSpace: true),
              value: percentDecode(Array(part[(eq + 1)...]), plusAsSpace: true)
            ))
        } else {
          items.append((name: percentDecode(Array(part), plusAsSpace: true), value: ""))
        }
      }
    }
    return (path, items)
  }

  /// Decodes `%XX` escapes; an invalid escape is kept literally. Invalid UTF-8 is repaired.
  static func percentDecode(_ bytes: [UInt8], plusAsSpace: Bool) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "%"), i + 2 < bytes.count,
        let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2])
      {
        out.append(h << 4 | l)
        i += 3
      } else if b == UInt8(ascii: "+") && plusAsSpace {
        out.append(UInt8(ascii: " "))
        i += 1
      } else {
        out.append(b)
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// What is wrong with `target`'s percent-encoding, or nil: an escape that is not `%` and
  /// two hex digits (`%2`, `%zz`), or escapes that decode to bytes that are not UTF-8 (`%ff`).
  /// ``percentDecode(_:plusAsSpace:)`` keeps the first as written and repairs the second.
  static func encodingProblem(in target: String) -> String? {
    var decoded: [UInt8] = []
    var inQuery = false
    var bytes = target.utf8.makeIterator()
    func part() -> String { inQuery ? "the query" : "the path" }
    func utf8Problem() -> String? {
      // Decoding repairs invalid UTF-8, so it changes the bytes exactly when they are not.
      String(decoding: decoded, as: UTF8.self).utf8.elementsEqual(decoded)
        ? nil : "\(part()) has percent-escapes that are not UTF-8"
    }
    while let byte = bytes.next() {
      if byte == UInt8(ascii: "?") && !inQuery {
        if let problem = utf8Problem() { return problem }
        decoded.removeAll()
        inQuery = true
      } else if byte == UInt8(ascii: "%") {
        guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue)
        else { return "\(part()) has a % that is not followed by two hex digits" }
        decoded.append(high << 4 | low)
      } else {
        decoded.append(byte)
      }
    }
    return utf8Problem()
  }

  private static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
