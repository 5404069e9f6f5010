#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Serializes responses onto the wire: status line, the handler's headers (checked), and the
/// `Content-Length`, `Date` and `Connection` fields the server owns.
struct ResponseEncoder {
  private var dateSecond: Int = -1
  private var dateBytes: [UInt8] = []
  /// `Date: ` and ``dateBytes`` and CRLF: the whole line, appended in one copy.
  private var dateLine: [UInt8] = []
  /// The status lines written so far, by status (index `status - 100`; empty until first
  /// written), each made once with the same text as ever.
  private var statusLines: [[UInt8]] = []

  // Static strings: their bytes are appended straight from the binary (no lazy global to
  // check, no array to retain).
  private static let okStatusLine: StaticString = "HTTP/1.1 200 OK\r\n"
  private static let contentLengthPrefix: StaticString = "Content-Length: "
  private static let connectionClose: StaticString = "Connection: close\r\n"
  private static let connectionKeepAlive: StaticString = "Connection: keep-alive\r\n"

  /// The interim response sent for `Expect: 100-continue`.
  static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  /// Appends `response` to `out`.
  ///
  /// - Parameters:
  ///   - headOnly: the request was `HEAD`: the body is left out, its length kept.
  ///   - keepAlive: whether the server intends to keep the connection.
  ///   - http10: the request was HTTP/1.0 (keep-alive must then be said explicitly).
  /// - Returns: whether the connection stays open (false when the handler asked to close).
  mutating func encode(
    _ response: HTTPResponse, headOnly: Bool, keepAlive: Bool, http10: Bool,
    into out: inout [UInt8]
  ) -> Bool {
    var keep = keepAlive
    let status = (100...999).contains(response.status) ? response.status : 500
    if status == 200 {
      ResponseEncoder.append(ResponseEncoder.okStatusLine, to: &out)
    } else {
      appendStatusLine(status, to: &out)
    }
    let hasDate: Bool
    if let wire = response.headers.wire {
      out.append(contentsOf: wire.bytes)
      hasDate = wire.hasDate
      if wire.asksToClose { keep = false }
    } else {
      let flags = ResponseEncoder.appendFields(response.headers.fields, to: &out)
      hasDate = flags.hasDate
      if flags.asksToClose { keep = false }
    }
    let bodyless = status == 204 || status == 304 || status < 200
    // None for a 304 either: RFC 9110 (8.6) allows only the length of the 200 it stands
    // for, which the server does not know, and a 304 has no body to frame.
    if !bodyless {
      ResponseEncoder.appendContentLength(response.body.count, to: &out)
    }
    if !hasDate {
      refreshDate()
      out.append(contentsOf: dateLine)
    }
    if !keep {
      ResponseEncoder.append(ResponseEncoder.connectionClose, to: &out)
    } else if http10 {
      ResponseEncoder.append(ResponseEncoder.connectionKeepAlive, to: &out)
    }
    out.append(0x0D)
    out.append(0x0A)
    if !headOnly && !bodyless {
      out.append(contentsOf: response.body)
    }
    return keep
  }

  /// Appends `HTTP/1.1 STATUS REASON` and CRLF (`status` in 100...999), made the first time
  /// and kept: a 404 or 429 costs no string interpolation per response.
  private mutating func appendStatusLine(_ status: Int, to out: inout [UInt8]) {
    if statusLines.isEmpty { statusLines = Array(repeating: [], count: 900) }
    if statusLines[status - 100].isEmpty {
      statusLines[status - 100] = Array(
        "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(for: status))\r\n".utf8)
    }
    out.append(contentsOf: statusLines[status - 100])
  }

  /// Appends the bytes of `text`.
  private static func append(_ text: StaticString, to out: inout [UInt8]) {
    out.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends `Content-Length: N` and CRLF in one copy, the line made on the stack.
  private static func appendContentLength(_ length: Int, to out: inout [UInt8]) {
    let prefix = contentLengthPrefix
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix.utf8CodeUnitCount + 22) {
      line in
      var n = 0
      for i in 0..<prefix.utf8CodeUnitCount {
        line[n] = prefix.utf8Start[i]
        n += 1
      }
      // The digits, most significant first (what ``appendDecimal(_:to:)`` writes).
      var divisor = 1
      while divisor <= length / 10 { divisor *= 10 }
      var rest = length
      while divisor > 0 {
        line[n] = UInt8(0x30 + rest / divisor)
        n += 1
        rest %= divisor
        divisor /= 10
      }
      line[n] = 0x0D
      line[n + 1] = 0x0A
      out.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<(n + 2)]))
    }
  }

  /// Appends a handler's `fields` as they go on the wire: the fields the server owns
  /// (`Content-Length`, `Transfer-Encoding`, `Connection`) and anything that could split the
  /// response are dropped. Returns whether a `Date` was among them (the server then writes
  /// none) and whether a `Connection` field asks to close.
  static func appendFields(
    _ fields: [(name: String, value: String)], to out: inout [UInt8]
  ) -> (hasDate: Bool, asksToClose: Bool) {
    var hasDate = false
    var asksToClose = false
    for field in fields {
      switch ResponseEncoder.ownedField(field.name) {
      case .length: continue
      case .connection:
        if field.value.lowercased().contains("close") { asksToClose = true }
        continue
      case .date: hasDate = true
      case .other: break
      }
      ResponseEncoder.appendField(field.name, field.value, to: &out)
    }
    return (hasDate, asksToClose)
  }

  /// The IMF-fixdate for now (`Sun, 06 Nov 1994 08:49:37 GMT`), recomputed once a second.
  mutating func currentDate() -> [UInt8] {
    refreshDate()
    return dateBytes
  }

  /// Makes ``dateBytes`` and ``dateLine`` the current second's, when they are not.
  private mutating func refreshDate() {
    var now = time(nil)
    if now != dateSecond {
      dateSecond = now
      dateBytes = Array(ResponseEncoder.imfFixdate(&now).utf8)
      dateLine = Array("Date: ".utf8) + dateBytes + [0x0D, 0x0A]
    }
  }

  static func imfFixdate(_ t: inout time_t) -> String {
    var parts = tm()
    gmtime_r(&t, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return
      "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }

  /// Appends `value` (not negative) in decimal, digit by digit: no string is made.
  static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
    if value < 10 {
      out.append(UInt8(0x30 + value))
      return
    }
    var divisor = 10
    while divisor <= value / 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      out.append(UInt8(0x30 + rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// The fields the encoder treats specially, by name (case-insensitively).
  private enum OwnedField {
    case length, connection, date, other
  }

  /// Which of the server's own fields `name` is: told by its length and first byte before
  /// any comparison, since nearly every field a handler sets is none of them.
  private static func ownedField(_ name: String) -> OwnedField {
    let utf8 = name.utf8
    guard let first = utf8.first.map({ $0 | 0x20 }) else { return .other }
    switch (utf8.count, first) {
    case (14, UInt8(ascii: "c")):
      return name.caseInsensitiveEquals("content-length") ? .length : .other
    case (17, UInt8(ascii: "t")):
      return name.caseInsensitiveEquals("transfer-encoding") ? .length : .other
    case (10, UInt8(ascii: "c")):
      return name.caseInsensitiveEquals("connection") ? .connection : .other
    case (4, UInt8(ascii: "d")):
      return name.caseInsensitiveEquals("date") ? .date : .other
    default:
      return .other
    }
  }

  /// Appends `name: value` and CRLF, unless the name is not a token or the value holds a
  /// control character (which could split the response): such a field is left out. Works on
  /// the strings' UTF-8 storage directly.
  static func appendField(_ name: String, _ value: String, to out: inout [UInt8]) {
    var name = name
    var value = value
    name.withUTF8 { nameBytes in
      guard !nameBytes.isEmpty, nameBytes.allSatisfy(HTTPRequestParser.isTokenByte) else {
        return
      }
      value.withUTF8 { valueBytes in
        for byte in valueBytes where !(byte >= 0x20 && byte != 0x7F || byte == 0x09) { return }
        out.append(contentsOf: nameBytes)
        out.append(0x3A)
        out.append(0x20)
        out.append(contentsOf: valueBytes)
        out.append(0x0D)
        out.append(0x0A)
      }
    }
  }

  /// A complete response the server writes itself (errors, 503 at the connection limit).
  static func errorResponse(status: Int, reason: String) -> HTTPResponse {
    var escaped = ""
    for ch in reason.unicodeScalars {
      switch ch {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case _ where ch.value < 0x20: escaped += " "
      default: escaped.unicodeScalars.append(ch)
      }
    }
    return .json(#"{"error":"\#(escaped)"}"#, status: status)
  }
}
