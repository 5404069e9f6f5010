import Testing

@testable import HTTPServer

/// ``HTTPHeaders/preEncoded()``: fields encoded once go on the wire exactly as the same fields
/// encoded field by field do, and any change to them drops the encoded form.
@Suite struct HeaderEncodingTests {
  /// Sets of fields, among them the ones the server owns or refuses.
  static let fieldSets: [[(name: String, value: String)]] = [
    [],
    [("Content-Type", "application/json; charset=utf-8")],
    [
      ("Content-Type", "application/json; charset=utf-8"), ("Access-Control-Allow-Origin", "*"),
      ("Access-Control-Expose-Headers", "X-Path, Retry-After"), ("X-Path", "/bench/feature1"),
      ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
    ],
    [("Content-Length", "999"), ("transfer-encoding", "chunked"), ("X-A", "1")],
    [("Connection", "close"), ("X-A", "1")],
    [("CONNECTION", "Keep-Alive, Close")],
    [("Connection", "keep-alive")],
    [("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("X-A", "1")],
    [("X-Split", "a\r\nSet-Cookie: b"), ("Bad Name", "x"), ("", "empty name"), ("X-Tab", "a\tb")],
    [("X-Del", "a\u{7F}b"), ("X-Ok", "ünïcode")],
  ]

  /// What the encoder writes for `headers`, with the server's own `Date` line taken out (it
  /// changes every second); and how many `Date` lines there were.
  private func wire(
    _ headers: HTTPHeaders, headOnly: Bool = false, keepAlive: Bool = true, http10: Bool = false
  ) -> (text: String, dates: Int, keep: Bool) {
    var encoder = ResponseEncoder()
    var out: [UInt8] = []
    let keep = encoder.encode(
      HTTPResponse(status: 200, headers: headers, body: Array(#"{"value":1}"#.utf8)),
      headOnly: headOnly, keepAlive: keepAlive, http10: http10, into: &out)
    let lines = String(decoding: out, as: UTF8.self).components(separatedBy: "\r\n")
    let dates = lines.filter { $0.hasPrefix("Date: ") }
    let serverDate = dates.first { !$0.hasSuffix("1994 08:49:37 GMT") }
    return (
      lines.filter { $0 != serverDate }.joined(separator: "\r\n"), dates.count, keep
    )
  }

  @Test(arguments: 0..<fieldSets.count)
  func preEncodedFieldsGoOnTheWireAsTheFieldsDo(index: Int) {
    let plain = HTTPHeaders(Self.fieldSets[index])
    let encoded = plain.preEncoded()
    #expect(plain.wire == nil && encoded.wire != nil)
    #expect(encoded == plain)
    for (headOnly, keepAlive, http10) in [
      (false, true, false), (true, true, false), (false, false, false), (false, true, true),
    ] {
      let a = wire(plain, headOnly: headOnly, keepAlive: keepAlive, http10: http10)
      let b = wire(encoded, headOnly: headOnly, keepAlive: keepAlive, http10: http10)
      #expect(a.text == b.text)
      #expect(a.dates == 1 && b.dates == 1)
      #expect(a.keep == b.keep)
    }
    let response = HTTPResponse(status: 200, headers: encoded)
    #expect(
      ConnectionStateMachine.asksToClose(response)
        == ConnectionStateMachine.asksToClose(HTTPResponse(status: 200, headers: plain)))
  }

  @Test func refusedAndOwnedFieldsStayOffTheWire() {
    let encoded = HTTPHeaders(Self.fieldSets[3] + Self.fieldSets[8]).preEncoded()
    let text = wire(encoded).text
    #expect(!text.contains("999") && !text.contains("chunked") && !text.contains("Set-Cookie"))
    #expect(!text.contains("Bad Name") && !text.contains("empty name"))
    #expect(text.contains("X-A: 1\r\n") && text.contains("X-Tab: a\tb\r\n"))
    #expect(text.contains("Content-Length: 11\r\n"))
    let closing = HTTPHeaders(Self.fieldSets[5]).preEncoded()
    #expect(!wire(closing).keep && wire(closing).text.contains("Connection: close\r\n"))
    #expect(ConnectionStateMachine.asksToClose(HTTPResponse(headers: closing)))
    #expect(wire(HTTPHeaders(Self.fieldSets[6]).preEncoded()).keep)
  }

  /// `Content-Length` digits are written without a string; they read as `String(n)` does.
  @Test func lengthsAreWrittenInDecimal() {
    var values = [0, 1, 9, 10, 11, 19, 99, 100, 101, 999, 1000, 1001, 65_535, 1 << 20, Int.max]
    values += (0..<19).map { digits in (0..<digits).reduce(1) { value, _ in value * 10 } }
    for value in values {
      var out: [UInt8] = [0x41]
      ResponseEncoder.appendDecimal(value, to: &out)
      #expect(String(decoding: out, as: UTF8.self) == "A\(value)")
    }
  }

  /// A whole response is its status line, the handler's fields, `Content-Length` (none for
  /// 204, 304 or 1xx), the server's `Date`, `Connection` when needed, an empty line and
  /// the body (none for HEAD, 204, 304): byte for byte, for bodies of every length of digits.
  @Test func responsesAreTheirPartsByteForByte() {
    var encoder = ResponseEncoder()
    let lengths = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12_345, 65_535, 100_000]
    for length in lengths {
      for (status, headOnly, keepAlive, http10) in [
        (200, false, true, false), (200, true, true, false), (404, false, false, false),
        (200, false, true, true), (204, false, true, false), (304, false, true, false),
        (103, false, true, false), (1000, false, true, false),
      ] {
        let body = [UInt8](repeating: 0x61, count: length)
        var out: [UInt8] = [0x5A]
        let keep = encoder.encode(
          HTTPResponse(status: status, headers: ["X-A": "1"], body: body), headOnly: headOnly,
          keepAlive: keepAlive, http10: http10, into: &out)
        let date = String(decoding: encoder.currentDate(), as: UTF8.self)
        let shown = status == 1000 ? 500 : status
        var expected = "ZHTTP/1.1 \(shown) \(HTTPResponse.reasonPhrase(for: shown))\r\nX-A: 1\r\n"
        if shown != 204 && shown != 304 && shown >= 200 {
          expected += "Content-Length: \(length)\r\n"
        }
        expected += "Date: \(date)\r\n"
        if !keepAlive { expected += "Connection: close\r\n" }
        if keepAlive && http10 { expected += "Connection: keep-alive\r\n" }
        expected += "\r\n"
        if !headOnly && shown != 204 && shown != 304 && shown >= 200 {
          expected += String(repeating: "a", count: length)
        }
        // A second changing between the encode and the date read: encode again.
        if String(decoding: out, as: UTF8.self) != expected {
          out = [0x5A]
          _ = encoder.encode(
            HTTPResponse(status: status, headers: ["X-A": "1"], body: body), headOnly: headOnly,
            keepAlive: keepAlive, http10: http10, into: &out)
        }
        #expect(String(decoding: out, as: UTF8.self) == expected, "\(status) \(length)")
        #expect(keep == keepAlive)
      }
    }
    #expect(encoder.currentDate().count == 29)
  }

  @Test func aChangedCopyIsEncodedFieldByFieldAndTheOriginalKeepsItsForm() {
    let encoded = HTTPHeaders([("X-Path", "/a/b"), ("Cache-Control", "no-store")]).preEncoded()
    var replaced = encoded
    replaced.replaceOrAdd(name: "x-path", value: "/c/d")
    var added = encoded
    added.add(name: "Connection", value: "close")
    var removed = encoded
    removed.remove(name: "Cache-Control")
    for changed in [replaced, added, removed] { #expect(changed.wire == nil) }
    #expect(wire(replaced).text.contains("x-path: /c/d\r\n"))
    #expect(!wire(replaced).text.contains("/a/b"))
    #expect(!wire(added).keep)
    #expect(!wire(removed).text.contains("Cache-Control"))
    #expect(encoded.wire != nil && wire(encoded).text.contains("X-Path: /a/b\r\n"))
    #expect(wire(encoded).keep)
  }

  /// Every status the services answer (and the common ones a handler may) carries its
  /// standard reason phrase on the wire: a suggestion's 202 went out as `202 Unknown`.
  @Test(arguments: [
    (200, "OK"), (201, "Created"), (202, "Accepted"), (204, "No Content"),
    (301, "Moved Permanently"), (302, "Found"), (303, "See Other"), (304, "Not Modified"),
    (307, "Temporary Redirect"), (308, "Permanent Redirect"), (400, "Bad Request"),
    (401, "Unauthorized"), (403, "Forbidden"), (404, "Not Found"), (405, "Method Not Allowed"),
    (406, "Not Acceptable"), (409, "Conflict"), (410, "Gone"), (412, "Precondition Failed"),
    (413, "Content Too Large"), (422, "Unprocessable Content"), (429, "Too Many Requests"),
    (500, "Internal Server Error"), (502, "Bad Gateway"), (503, "Service Unavailable"),
    (504, "Gateway Timeout"),
  ])
  func statusesCarryTheirReasonPhrase(status: Int, phrase: String) {
    var out: [UInt8] = []
    var encoder = ResponseEncoder()
    _ = encoder.encode(
      HTTPResponse(status: status), headOnly: false, keepAlive: true, http10: false, into: &out)
    #expect(String(decoding: out, as: UTF8.self).hasPrefix("HTTP/1.1 \(status) \(phrase)\r\n"))
  }
}
