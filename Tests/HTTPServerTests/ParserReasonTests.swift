import Testing

@testable import HTTPServer

/// The reason a refused request line or header field is answered with (it goes on the wire in
/// the error body), for each kind of fault and for faults of two kinds at once: the first
/// check in the order line shape, method, target, version wins.
@Suite struct ParserReasonTests {
  static let cases: [(line: String, reason: String?)] = [
    ("GET / HTTP/1.1", nil),
    ("GET /a%20b?c=d HTTP/1.0", nil),
    ("GET", "malformed request line"),
    ("GET /", "malformed request line"),
    ("GET / HTTP/1.1 x", "malformed request line"),
    ("G@T / HTTP/1.1 x", "malformed request line"),
    ("GET  / HTTP/1.1", "malformed request line"),
    (" / HTTP/1.1", "malformed method"),
    ("G@T / HTTP/1.1", "malformed method"),
    ("G\u{7F}T /\u{7F} HTTP/9", "malformed method"),
    ("GET \u{7F} HTTP/1.1", "malformed request target"),
    ("G@T  HTTP/1.1", "malformed method"),
    ("GET /\u{7F} HTTP/x.1", "malformed request target"),
    ("GET / HTTP/1.x", "malformed HTTP version"),
    ("GET / http/1.1", "malformed HTTP version"),
    ("GET / HTTP/1.10", "malformed HTTP version"),
    ("GET / HTTP/2.0", "HTTP/2.0 is not supported"),
    ("GET x HTTP/1.1", "malformed request target"),
    ("GET * HTTP/1.1", "asterisk target is only for OPTIONS"),
    ("OPTIONS * HTTP/1.1", nil),
    ("GET http://h/p?q HTTP/1.1", nil),
    ("GET http:// HTTP/1.1", "malformed request target"),
  ]

  static let fieldCases: [(field: String, reason: String?)] = [
    ("X-A: 1", nil),
    ("X-A:", nil),
    ("X-A : 1", "malformed header field"),
    (": 1", "malformed header field"),
    ("X@A: 1", "malformed header field"),
    ("X-A 1", "malformed header field"),
    (" X-A: 1", "obsolete line folding"),
    ("X-A: 1\u{7F}", "malformed header field"),
    ("X-A: a\u{1}b", "malformed header field"),
    ("X-A: \tok\t", nil),
  ]

  /// The token bytes are RFC 9110's tchar, no more and no fewer, over all 256 bytes.
  @Test func tokenBytesAreTchar() {
    let tchar = Set(Array("!#$%&'*+-.^_`|~0123456789".utf8))
      .union(UInt8(ascii: "a")...UInt8(ascii: "z")).union(UInt8(ascii: "A")...UInt8(ascii: "Z"))
    for byte in UInt8.min...UInt8.max {
      #expect(HTTPRequestParser.isTokenByte(byte) == tchar.contains(byte), "\(byte)")
    }
  }

  /// A request made from what the parser found has the path and query that splitting its
  /// target gives, whether or not the parser found the target plain.
  @Test func parsedTargetsGiveThePathAndQueryOfTheirSplit() {
    let targets = [
      "/", "/hit/bench/feature1", "/a%20b", "/a?b=c", "/a?", "/?x", "/a%2Fb?c=%41&d",
      "http://h/p?q=1", "http://h", "*",
    ]
    for target in targets {
      let method = target == "*" ? "OPTIONS" : "GET"
      var parser = HTTPRequestParser()
      let (event, _) = parser.consume(Array("\(method) \(target) HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
      guard case .request(let parsed) = event else {
        Issue.record("\(target): \(event)")
        continue
      }
      #expect(
        parsed.pathIsTarget
          == (target.hasPrefix("/") && !target.contains("%") && !target.contains("?")))
      let made = HTTPRequest(
        method: HTTPMethod(rawValue: parsed.method), target: parsed.target,
        version: parsed.version, headers: parsed.headers, body: parsed.body, remoteAddress: "",
        pathIsTarget: parsed.pathIsTarget)
      let reference = HTTPRequest(method: .get, target: parsed.target)
      #expect(made.path == reference.path, "\(target)")
      #expect(
        made.queryItems.map { "\($0.name)=\($0.value)" }
          == reference.queryItems.map { "\($0.name)=\($0.value)" }, "\(target)")
    }
  }

  /// A line split across reads is completed in the parser's line buffer; once the request is
  /// whole the parser holds nothing, whichever later line arrived whole (an idle connection
  /// keeps no buffer).
  @Test func aSplitLineLeavesNothingHeldOnceTheRequestIsWhole() {
    let request =
      "POST /a HTTP/1.1\r\nHost: a\r\nX-Long: " + String(repeating: "v", count: 300)
      + "\r\nContent-Length: 2\r\n\r\nokGET /b HTTP/1.1\r\nHost: b\r\n\r\n"
    let bytes = Array(request.utf8)
    for cut in [5, 20, 40, 200, 330, 350] {
      var parser = HTTPRequestParser()
      var seen: [String] = []
      for piece in [Array(bytes[..<cut]), Array(bytes[cut...])] {
        var offset = 0
        while offset < piece.count {
          let (event, used) = parser.consume(Array(piece[offset...]))
          offset += used
          if case .request(let r) = event {
            seen.append(r.target)
            #expect(parser.heldBytes == 0, "cut \(cut) after \(r.target)")
          }
          if case .failure(let f) = event { Issue.record("cut \(cut): \(f.reason)") }
        }
      }
      #expect(seen == ["/a", "/b"], "cut \(cut)")
    }
  }

  private func reason(_ text: String) -> String? {
    var parser = HTTPRequestParser()
    let (event, _) = parser.consume(Array(text.utf8))
    if case .failure(let failure) = event { return failure.reason }
    return nil
  }

  @Test func requestLinesAreRefusedForTheirFirstFault() {
    for (line, expected) in Self.cases {
      #expect(reason(line + "\r\nHost: a\r\n\r\n") == expected, "\(line)")
    }
  }

  @Test func headerFieldsAreRefusedForTheirFault() {
    for (field, expected) in Self.fieldCases {
      #expect(reason("GET / HTTP/1.1\r\nHost: a\r\n" + field + "\r\n\r\n") == expected, "\(field)")
    }
  }
}
