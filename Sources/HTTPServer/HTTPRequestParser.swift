/// An incremental HTTP/1.x request parser: a plain state machine with no I/O.
///
/// Bytes are fed in any split (`consume`); the parser keeps its state between calls and
/// stops at the end of each request, so pipelined requests are read one at a time. Every
/// limit of ``HTTPParserLimits`` is enforced while reading, before anything unbounded is
/// stored. The body limit is decided per request once its head is complete (asking
/// ``HTTPParserLimits/bodyLimit``, when set) and checked before the first body byte: against
/// `Content-Length` before ``Event/headComplete`` (so no `100 Continue` precedes a 413), and
/// against every chunk size as it is read. A failure carries the status to answer (400, 413, 414, 431, 501, 505); after a
/// failure the parser must not be fed again and the connection is closed.
///
/// Strict on purpose (RFC 9112, refusing anything a front proxy could read differently):
/// lines end in CRLF; a bare CR or LF, a NUL or other control byte, obsolete line folding,
/// whitespace before a header colon, `Content-Length` together with `Transfer-Encoding`,
/// two `Content-Length` fields, and a `Content-Length` that is not plain digits are all
/// refused with 400.
struct HTTPRequestParser {
  /// What one call to ``consume(_:)`` found.
  enum Event: Equatable {
    /// Every byte given was used and the request is not complete yet.
    case needMore
    /// The head is complete and a body follows; the caller may answer `100 Continue`.
    case headComplete
    /// A whole request; parsing of the next one starts with the next byte.
    case request(ParsedRequest)
    /// The input is refused; answer with `failure.status` and close.
    case failure(HTTPParseFailure)
  }

  /// How the body of the current request is delimited.
  enum BodyFraming: Equatable {
    case none
    case contentLength(Int)
    case chunked
  }

  private enum State {
    case requestLine
    case headerLine
    case fixedBody(remaining: Int)
    case chunkSizeLine
    case chunkData(remaining: Int)
    case chunkDataCR
    case chunkDataLF
    case trailerLine
    case failed
  }

  // The stored properties are ordered so that the small ones share the padding of the
  // large ones: every open connection holds one parser, idle or not.

  /// The limits this parser enforces.
  let limits: HTTPParserLimits

  /// The line being read (released once the head is complete).
  private var line: [UInt8] = []
  private var headerBytes = 0
  private var trailerBytes = 0
  private var method = ""
  private var target = ""
  private var headers: [(name: String, value: String)] = []
  private var body: [UInt8] = []
  /// The body limit of the request being read, decided when its head completed.
  private(set) var currentBodyLimit = 0
  private var state: State = .requestLine
  private var sawCR = false
  /// The minor version of the last request line (the major one is always 1).
  private var minorVersion: UInt8 = 1
  private var emptyLinesSkipped: UInt8 = 0
  private var framing = BodyFraming.none
  /// The origin-form target of the request being read has no `%` and no `?`.
  private var pathIsTarget = false

  private var version: (major: Int, minor: Int) { (1, Int(minorVersion)) }

  /// Creates a parser enforcing `limits`.
  init(limits: HTTPParserLimits = HTTPParserLimits()) {
    self.limits = limits
  }

  /// True when no byte of a next request has been read yet.
  var isAtRequestBoundary: Bool {
    if case .requestLine = state { return line.isEmpty && !sawCR }
    return false
  }

  /// True once the request line and headers of the current request are complete.
  var isReadingBody: Bool {
    switch state {
    case .fixedBody, .chunkSizeLine, .chunkData, .chunkDataCR, .chunkDataLF, .trailerLine:
      return true
    default: return false
    }
  }

  /// The first value of header `name` of the request being read (case-insensitive), or nil.
  func headerValue(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveEquals(name) }?.value
  }

  /// The minor HTTP version of the request being read (0 or 1).
  var currentMinorVersion: Int { version.minor }

  /// The heap bytes the parser holds for the request being read: its line, header fields,
  /// body and text (0 between requests, which is what keeps an idle connection small).
  var heldBytes: Int {
    line.capacity + body.capacity + method.utf8.count + target.utf8.count
      + headers.capacity * MemoryLayout<(name: String, value: String)>.stride
      + headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
  }

  /// Feeds bytes; returns what was found and how many bytes were used.
  ///
  /// Bytes after a complete request (`consumed < input.count`) belong to the next request
  /// and must be fed again later.
  mutating func consume(_ input: UnsafeBufferPointer<UInt8>) -> (event: Event, consumed: Int) {
    var i = 0
    let n = input.count
    while i < n {
      switch state {
      case .failed:
        return (.failure(HTTPParseFailure(.badRequest, "parser used after a failure")), i)

      case .requestLine, .headerLine, .chunkSizeLine, .trailerLine:
        // Scan for the end of the line, checking every byte.
        let start = i
        var end = -1
        while i < n {
          // Nearly every byte of a line is above CR: none of the checks below concerns it.
          if !sawCR {
            while i < n && input[i] > 0x0D { i += 1 }
            if i == n { break }
          }
          let b = input[i]
          i += 1
          if sawCR {
            if b != 0x0A { return fail(.badRequest, "CR not followed by LF", at: i) }
            sawCR = false
            end = i
            break
          }
          if b == 0x0D {
            sawCR = true
          } else if b == 0x0A {
            return fail(.badRequest, "bare LF as line ending", at: i)
          } else if b == 0 {
            return fail(.badRequest, "NUL byte", at: i)
          }
        }
        let lineEnd = end < 0 ? i : end
        let count = lineEnd - start
        if let failure = chargeLineBytes(count) { return (.failure(failure), lineEnd) }
        let finished: Event?
        if end < 0 {
          line.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<lineEnd]))
          return (.needMore, i)
        } else if line.isEmpty {
          // The whole line is in `input` (nearly always): read in place, without its CRLF.
          finished = finishLine(UnsafeBufferPointer(rebasing: input[start..<(lineEnd - 2)]))
          // A buffer kept from an earlier split line of this block goes with the block.
          if line.capacity > 0 {
            switch state {
            case .headerLine, .trailerLine: break
            default: line = []
            }
          }
        } else {
          // The line began in an earlier call: complete it in `line`, then read it there.
          line.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<lineEnd]))
          var whole: [UInt8] = []
          swap(&whole, &line)
          finished = whole.withUnsafeBufferPointer {
            finishLine(UnsafeBufferPointer(rebasing: $0[..<($0.count - 2)]))
          }
          // Kept for the next split line while more lines of this block follow; released
          // once the head (or the trailer) is complete, so an idle connection holds none.
          switch state {
          case .headerLine, .trailerLine:
            whole.removeAll(keepingCapacity: true)
            swap(&whole, &line)
          default:
            break
          }
        }
        if let event = finished {
          guard case .failure(var failure) = event else { return (event, i) }
          state = .failed
          // A body refused for its size comes after a whole head: say whose it was.
          if failure.kind == .payloadTooLarge && !method.isEmpty {
            failure.request = ParsedRequest(
              method: method, target: target, version: version, headers: HTTPHeaders(headers),
              body: [], framing: framing)
          }
          return (.failure(failure), i)
        }

      case .fixedBody(let remaining):
        let take = min(remaining, n - i)
        body.append(contentsOf: UnsafeBufferPointer(rebasing: input[i..<(i + take)]))
        i += take
        if take == remaining {
          return (.request(finishRequest()), i)
        }
        state = .fixedBody(remaining: remaining - take)

      case .chunkData(let remaining):
        let take = min(remaining, n - i)
        body.append(contentsOf: UnsafeBufferPointer(rebasing: input[i..<(i + take)]))
        i += take
        state = take == remaining ? .chunkDataCR : .chunkData(remaining: remaining - take)

      case .chunkDataCR:
        if input[i] != 0x0D { return fail(.badRequest, "chunk data not followed by CRLF", at: i) }
        i += 1
        state = .chunkDataLF

      case .chunkDataLF:
        if input[i] != 0x0A { return fail(.badRequest, "chunk data not followed by CRLF", at: i) }
        i += 1
        state = .chunkSizeLine
      }
    }
    return (.needMore, n)
  }

  /// Convenience for tests and the fuzzer: feeds an array.
  mutating func consume(_ bytes: [UInt8]) -> (event: Event, consumed: Int) {
    bytes.withUnsafeBufferPointer { consume($0) }
  }

  private mutating func fail(
    _ kind: HTTPParseFailure.Kind, _ reason: String, at index: Int
  ) -> (event: Event, consumed: Int) {
    state = .failed
    return (.failure(HTTPParseFailure(kind, reason)), index)
  }

  /// Counts `count` more bytes of the current line against its limit.
  private mutating func chargeLineBytes(_ count: Int) -> HTTPParseFailure? {
    switch state {
    case .requestLine:
      // The line limit includes its CRLF.
      if line.count + count > limits.maxRequestLineBytes + 2 {
        state = .failed
        return HTTPParseFailure(
          .uriTooLong, "request line longer than \(limits.maxRequestLineBytes) bytes")
      }
    case .headerLine:
      headerBytes += count
      if headerBytes > limits.maxHeaderBytes {
        state = .failed
        return HTTPParseFailure(
          .headersTooLarge, "header block larger than \(limits.maxHeaderBytes) bytes")
      }
    case .chunkSizeLine:
      if line.count + count > HTTPParserLimits.maxChunkSizeLineBytes {
        state = .failed
        return HTTPParseFailure(.badRequest, "chunk size line too long")
      }
    case .trailerLine:
      trailerBytes += count
      if trailerBytes > limits.maxHeaderBytes {
        state = .failed
        return HTTPParseFailure(
          .headersTooLarge, "trailer block larger than \(limits.maxHeaderBytes) bytes")
      }
    default: break
    }
    return nil
  }

  /// Handles a complete line (`line`, without its CRLF). Returns an event to stop at, or nil
  /// to go on.
  private mutating func finishLine(_ line: UnsafeBufferPointer<UInt8>) -> Event? {
    switch state {
    case .requestLine:
      if line.isEmpty {
        // RFC 9112 2.2: ignore at least one empty line before a request line; we allow a few.
        emptyLinesSkipped += 1
        if emptyLinesSkipped > 4 {
          return .failure(HTTPParseFailure(.badRequest, "too many empty lines before request"))
        }
        return nil
      }
      if let failure = parseRequestLine(line) { return .failure(failure) }
      state = .headerLine
      return nil

    case .headerLine:
      if line.isEmpty {
        return finishHead()
      }
      if let failure = parseHeaderLine(line) { return .failure(failure) }
      return nil

    case .chunkSizeLine:
      switch parseChunkSize(line) {
      case .failure(let failure): return .failure(failure)
      case .success(let size):
        if size == 0 {
          state = .trailerLine
        } else {
          if body.count + size > currentBodyLimit {
            return .failure(
              HTTPParseFailure(
                .payloadTooLarge, "chunked body larger than \(currentBodyLimit) bytes"))
          }
          state = .chunkData(remaining: size)
        }
        return nil
      }

    case .trailerLine:
      if line.isEmpty {
        return .request(finishRequest())
      }
      // Trailer fields are checked like header fields, then dropped.
      if line[0] == 0x20 || line[0] == 0x09 {
        return .failure(HTTPParseFailure(.badRequest, "obsolete line folding in trailer"))
      }
      guard Self.splitField(line) != nil else {
        return .failure(HTTPParseFailure(.badRequest, "malformed trailer field"))
      }
      return nil

    default:
      return nil
    }
  }

  // MARK: - Request line

  private mutating func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> HTTPParseFailure? {
    // method SP request-target SP HTTP-version, single spaces exactly. One pass finds the
    // spaces and checks the method's and the target's bytes; the faults are then reported
    // in the order line shape, method, target, version.
    let n = line.count
    var i = 0
    var methodIsToken = true
    while i < n && line[i] != 0x20 {
      methodIsToken = methodIsToken && Self.isTokenByte(line[i])
      i += 1
    }
    let sp1 = i < n ? i : -1
    i += 1
    var targetIsVisible = true
    var targetIsPlain = true
    while i < n && line[i] != 0x20 {
      targetIsVisible = targetIsVisible && line[i] > 0x20 && line[i] < 0x7F
      targetIsPlain = targetIsPlain && line[i] != UInt8(ascii: "%") && line[i] != UInt8(ascii: "?")
      i += 1
    }
    let sp2 = i < n ? i : -1
    i += 1
    while i < n {
      if line[i] == 0x20 { return HTTPParseFailure(.badRequest, "malformed request line") }
      i += 1
    }
    guard sp2 >= 0 else {
      return HTTPParseFailure(.badRequest, "malformed request line")
    }
    let methodBytes = line[..<sp1]
    let targetBytes = line[(sp1 + 1)..<sp2]
    let versionBytes = line[(sp2 + 1)...]
    guard !methodBytes.isEmpty, methodIsToken else {
      return HTTPParseFailure(.badRequest, "malformed method")
    }
    guard !targetBytes.isEmpty, targetIsVisible else {
      return HTTPParseFailure(.badRequest, "malformed request target")
    }
    // HTTP-version = "HTTP/" DIGIT "." DIGIT, case-sensitive.
    // Read in place (the line's slice, offset to its start): no copy per request.
    let o = versionBytes.startIndex
    let v = line
    guard versionBytes.count == 8, v[o] == 0x48, v[o + 1] == 0x54, v[o + 2] == 0x54,
      v[o + 3] == 0x50, v[o + 4] == 0x2F, Self.isDigit(v[o + 5]), v[o + 6] == 0x2E,
      Self.isDigit(v[o + 7])
    else {
      return HTTPParseFailure(.badRequest, "malformed HTTP version")
    }
    let major = Int(v[o + 5] - 0x30)
    let minor = Int(v[o + 7] - 0x30)
    guard major == 1 else {
      return HTTPParseFailure(.versionNotSupported, "HTTP/\(major).\(minor) is not supported")
    }
    method = Self.methodText(UnsafeBufferPointer(rebasing: methodBytes))
    // Origin form ("/path"), asterisk form (OPTIONS *) or absolute form (proxies may send it).
    let first = targetBytes[targetBytes.startIndex]
    if first == 0x2F {
      target = String(decoding: UnsafeBufferPointer(rebasing: targetBytes), as: UTF8.self)
      pathIsTarget = targetIsPlain
    } else if targetBytes.count == 1 && first == 0x2A {
      guard method == "OPTIONS" else {
        return HTTPParseFailure(.badRequest, "asterisk target is only for OPTIONS")
      }
      target = "*"
    } else if let path = Self.pathOfAbsoluteForm(Array(targetBytes)) {
      target = path
    } else {
      return HTTPParseFailure(.badRequest, "malformed request target")
    }
    minorVersion = UInt8(min(minor, 1))
    return nil
  }

  /// The method token as text: the usual ones without decoding (the bytes are checked token
  /// bytes, so the literal is exactly what decoding would give).
  private static func methodText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    switch bytes.count {
    case 3 where bytes[0] == 0x47 && bytes[1] == 0x45 && bytes[2] == 0x54: return "GET"
    case 3 where bytes[0] == 0x50 && bytes[1] == 0x55 && bytes[2] == 0x54: return "PUT"
    case 4 where bytes[0] == 0x50 && bytes[1] == 0x4F && bytes[2] == 0x53 && bytes[3] == 0x54:
      return "POST"
    case 4 where bytes[0] == 0x48 && bytes[1] == 0x45 && bytes[2] == 0x41 && bytes[3] == 0x44:
      return "HEAD"
    default: return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The origin-form part of `http://host[:port]/path?query`, or nil when not absolute form.
  private static func pathOfAbsoluteForm(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    let lower = text.lowercased()
    let rest: Substring
    if lower.hasPrefix("http://") {
      rest = text.dropFirst(7)
    } else if lower.hasPrefix("https://") {
      rest = text.dropFirst(8)
    } else {
      return nil
    }
    guard !rest.isEmpty, rest.first != "/" else { return nil }
    if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
      let path = rest[slash...]
      return path.first == "?" ? "/" + path : String(path)
    }
    return "/"
  }

  // MARK: - Header fields

  private mutating func parseHeaderLine(_ line: UnsafeBufferPointer<UInt8>) -> HTTPParseFailure? {
    if line[0] == 0x20 || line[0] == 0x09 {
      return HTTPParseFailure(.badRequest, "obsolete line folding")
    }
    guard let (name, value) = Self.splitField(line) else {
      return HTTPParseFailure(.badRequest, "malformed header field")
    }
    if headers.count >= limits.maxHeaderCount {
      return HTTPParseFailure(.headersTooLarge, "more than \(limits.maxHeaderCount) header fields")
    }
    headers.append((name: name, value: value))
    return nil
  }

  /// Splits `name: value`, validating both; nil when malformed.
  private static func splitField(_ line: UnsafeBufferPointer<UInt8>) -> (String, String)? {
    // The name: token bytes up to the colon, in one pass. No whitespace between name and
    // colon (RFC 9112 5.1): a classic smuggling vector.
    var colon = 0
    while colon < line.count && line[colon] != 0x3A {
      guard isTokenByte(line[colon]) else { return nil }
      colon += 1
    }
    guard colon < line.count, colon > 0 else { return nil }
    let nameBytes = line[..<colon]
    var start = colon + 1
    var end = line.count
    while start < end && (line[start] == 0x20 || line[start] == 0x09) { start += 1 }
    while end > start && (line[end - 1] == 0x20 || line[end - 1] == 0x09) { end -= 1 }
    let valueBytes = UnsafeBufferPointer(rebasing: line[start..<end])
    // field-vchar, SP, HTAB and obs-text only: no control bytes.
    for b in valueBytes where (b < 0x20 && b != 0x09) || b == 0x7F { return nil }
    return (
      String(decoding: UnsafeBufferPointer(rebasing: nameBytes), as: UTF8.self),
      String(decoding: valueBytes, as: UTF8.self)
    )
  }

  /// Decides the body framing once the head is complete.
  private mutating func finishHead() -> Event? {
    var contentLengths: [String] = []
    var transferEncodings: [String] = []
    var hostCount = 0
    for field in headers {
      // Told apart by length first: each name is compared with the one it could be.
      switch field.name.utf8.count {
      case 14 where field.name.caseInsensitiveEquals("content-length"):
        contentLengths.append(field.value)
      case 17 where field.name.caseInsensitiveEquals("transfer-encoding"):
        transferEncodings.append(field.value)
      case 4 where field.name.caseInsensitiveEquals("host"):
        hostCount += 1
      default:
        break
      }
    }
    if version.minor == 1 && hostCount != 1 {
      return fail(hostCount == 0 ? "HTTP/1.1 request without Host" : "more than one Host field")
    }
    if hostCount > 1 { return fail("more than one Host field") }

    if !transferEncodings.isEmpty {
      if !contentLengths.isEmpty {
        return fail("both Content-Length and Transfer-Encoding")
      }
      if version.minor == 0 {
        return fail("Transfer-Encoding in an HTTP/1.0 request")
      }
      let codings = transferEncodings.joined(separator: ",")
        .split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.trimmingSpacesAndTabs().lowercased() }
      if codings.last != "chunked" || codings.contains("") {
        return fail("Transfer-Encoding does not end in chunked")
      }
      if codings.count > 1 {
        state = .failed
        return .failure(
          HTTPParseFailure(
            .notImplemented,
            "transfer coding \(codings.dropLast().joined(separator: ", ")) is not supported"))
      }
      framing = .chunked
      currentBodyLimit = limits.bodyLimit(for: currentHead())
      state = .chunkSizeLine
      return .headComplete
    }

    if contentLengths.count > 1 { return fail("more than one Content-Length") }
    if let text = contentLengths.first {
      let bytes = Array(text.utf8)
      guard !bytes.isEmpty, bytes.allSatisfy(Self.isDigit) else {
        return fail("Content-Length is not a plain decimal number")
      }
      var length = 0
      for b in bytes {
        let (m, o1) = length.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.addingReportingOverflow(Int(b - 0x30))
        if o1 || o2 {
          // Larger than any memory: over every limit.
          length = Int.max
          break
        }
        length = s
      }
      if length > 0 {
        currentBodyLimit = limits.bodyLimit(for: currentHead())
        if length > currentBodyLimit {
          state = .failed
          return .failure(
            HTTPParseFailure(
              .payloadTooLarge, "Content-Length exceeds \(currentBodyLimit) bytes"))
        }
        framing = .contentLength(length)
        // Reserve what a small body needs; a large one grows as its bytes actually arrive,
        // so a bare header cannot make the server set aside `maxBodyBytes`.
        body.reserveCapacity(min(length, 64 * 1024))
        state = .fixedBody(remaining: length)
        return .headComplete
      }
      framing = .contentLength(0)
    }
    return .request(finishRequest())
  }

  /// The head of the request being read, for the body-limit decider.
  private func currentHead() -> HTTPRequestHead {
    HTTPRequestHead(
      method: HTTPMethod(rawValue: method), target: target, version: version,
      headers: HTTPHeaders(headers))
  }

  private mutating func fail(_ reason: String) -> Event {
    state = .failed
    return .failure(HTTPParseFailure(.badRequest, reason))
  }

  // MARK: - Chunked body

  private enum ChunkSize {
    case success(Int)
    case failure(HTTPParseFailure)
  }

  private func parseChunkSize(_ line: UnsafeBufferPointer<UInt8>) -> ChunkSize {
    // chunk-size [ chunk-ext ]; extensions are bounded by the line limit and ignored.
    var size = 0
    var digits = 0
    var i = 0
    while i < line.count, let h = Self.hexValue(line[i]) {
      digits += 1
      if digits > 15 {
        return .failure(HTTPParseFailure(.payloadTooLarge, "chunk size too large"))
      }
      size = size << 4 | h
      i += 1
    }
    guard digits > 0 else { return .failure(HTTPParseFailure(.badRequest, "malformed chunk size")) }
    if i < line.count {
      // Only BWS then ';' may follow the digits.
      var j = i
      while j < line.count && (line[j] == 0x20 || line[j] == 0x09) { j += 1 }
      guard j < line.count, line[j] == 0x3B else {
        return .failure(HTTPParseFailure(.badRequest, "malformed chunk size"))
      }
      for b in line[j...] where b < 0x20 && b != 0x09 || b == 0x7F {
        return .failure(HTTPParseFailure(.badRequest, "control byte in chunk extension"))
      }
    }
    if size > currentBodyLimit {
      return .failure(
        HTTPParseFailure(.payloadTooLarge, "chunk larger than \(currentBodyLimit) bytes"))
    }
    return .success(size)
  }

  // MARK: - Completion

  private mutating func finishRequest() -> ParsedRequest {
    let request = ParsedRequest(
      method: method, target: target, version: version, headers: HTTPHeaders(headers),
      body: body, framing: framing, pathIsTarget: pathIsTarget)
    pathIsTarget = false
    method = ""
    target = ""
    headers = []
    body = []
    framing = .none
    currentBodyLimit = 0
    headerBytes = 0
    trailerBytes = 0
    emptyLinesSkipped = 0
    state = .requestLine
    return request
  }

  // MARK: - Byte classes

  static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

  static func hexValue(_ b: UInt8) -> Int? {
    switch b {
    case 0x30...0x39: return Int(b - 0x30)
    case 0x41...0x46: return Int(b - 0x41 + 10)
    case 0x61...0x66: return Int(b - 0x61 + 10)
    default: return nil
    }
  }

  /// RFC 9110 tchar: digits, letters and `!#$%&'*+-.^_`|~`, as a bit set over the ASCII
  /// bytes (bytes 0-63, then 64-127), read without a branch per class.
  static func isTokenByte(_ b: UInt8) -> Bool {
    let low: UInt64 = 0x03FF_6CFA_0000_0000
    let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
    guard b < 0x80 else { return false }
    let word = b < 64 ? low : high
    return (word >> UInt64(b & 63)) & 1 == 1
  }
}
