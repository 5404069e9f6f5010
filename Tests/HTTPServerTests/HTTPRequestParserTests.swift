import Testing

@testable import HTTPServer

/// What feeding some bytes to the parser came to.
struct ParseOutcome: Equatable, CustomStringConvertible {
  /// Complete requests, as `METHOD target body`.
  var requests: [String] = []
  /// The failure status, if the input was refused.
  var failure: Int?
  /// Whether a partial request is still waiting for bytes.
  var incomplete = false

  var description: String {
    "\(requests) failure=\(failure.map(String.init) ?? "-") incomplete=\(incomplete)"
  }
}

/// Feeds `pieces` in order, collecting every request until a failure.
func parse(_ pieces: [[UInt8]], limits: HTTPParserLimits = HTTPParserLimits()) -> ParseOutcome {
  var parser = HTTPRequestParser(limits: limits)
  var outcome = ParseOutcome()
  for piece in pieces {
    var offset = 0
    while offset < piece.count {
      let (event, used) = parser.consume(Array(piece[offset...]))
      offset += used
      switch event {
      case .needMore, .headComplete: continue
      case .request(let r):
        outcome.requests.append(
          "\(r.method) \(r.target) \(String(decoding: r.body, as: UTF8.self))")
      case .failure(let f):
        outcome.failure = f.status
        return outcome
      }
    }
  }
  outcome.incomplete = !parser.isAtRequestBoundary
  return outcome
}

private func ok(_ requests: String...) -> ParseOutcome { ParseOutcome(requests: requests) }
private func refused(_ status: Int) -> ParseOutcome { ParseOutcome(failure: status) }
private let partial = ParseOutcome(incomplete: true)

/// One row of the table: raw bytes in, expected outcome out.
struct ParserCase: CustomTestStringConvertible, Sendable {
  var name: String
  var input: [UInt8]
  var expected: ParseOutcome
  var limits = HTTPParserLimits()

  init(
    _ name: String, _ input: String, _ expected: ParseOutcome, limits: HTTPParserLimits = .init()
  ) {
    self.name = name
    self.input = Array(input.utf8)
    self.expected = expected
    self.limits = limits
  }

  init(_ name: String, bytes: [UInt8], _ expected: ParseOutcome) {
    self.name = name
    self.input = bytes
    self.expected = expected
  }

  var testDescription: String { name }
}

extension ParseOutcome: @unchecked Sendable {}

private let small = HTTPParserLimits(
  maxRequestLineBytes: 32, maxHeaderBytes: 64, maxHeaderCount: 3, maxBodyBytes: 10)

let parserCases: [ParserCase] = [
  // Well-formed requests.
  .init("simple GET", "GET / HTTP/1.1\r\nHost: a\r\n\r\n", ok("GET / ")),
  .init("HTTP/1.0 without Host", "GET /x HTTP/1.0\r\n\r\n", ok("GET /x ")),
  .init(
    "query kept in target", "GET /a?b=c%20d HTTP/1.1\r\nHost: a\r\n\r\n", ok("GET /a?b=c%20d ")),
  .init(
    "Content-Length body", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    ok("POST /p hello")),
  .init(
    "Content-Length 0", "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", ok("POST /p ")),
  .init(
    "chunked body",
    "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
    ok("POST /c hello world")),
  .init(
    "chunked with extension and trailer",
    "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA;name=v\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n",
    ok("POST /c 0123456789")),
  .init(
    "pipelined requests",
    "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: a\r\n\r\n",
    ok("GET /1 ", "POST /2 hi", "GET /3 ")),
  .init("leading empty line ignored", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", ok("GET / ")),
  .init(
    "absolute form", "GET http://a.example:8080/p?q=1 HTTP/1.1\r\nHost: a\r\n\r\n",
    ok("GET /p?q=1 ")),
  // The authority, a userinfo included, never reaches a handler or a log line
  // (docs/threat_model.md).
  .init(
    "absolute form with userinfo",
    "GET http://user:secret@a.example/hit/ns/k HTTP/1.1\r\nHost: a\r\n\r\n",
    ok("GET /hit/ns/k ")),
  .init(
    "absolute form, query only", "GET HTTPS://a.example?x=1 HTTP/1.1\r\nHost: a\r\n\r\n",
    ok("GET /?x=1 ")),
  .init(
    "absolute form without authority", "GET http:///p HTTP/1.1\r\nHost: a\r\n\r\n",
    refused(400)),
  .init(
    "other scheme", "GET ftp://a.example/p HTTP/1.1\r\nHost: a\r\n\r\n",
    refused(400)),
  .init("OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", ok("OPTIONS * ")),
  .init("unknown method still parses", "BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", ok("BREW /pot ")),
  .init("HTTP/1.2 read as 1.1", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", ok("GET / ")),
  .init(
    "obs-text in value allowed", "GET / HTTP/1.1\r\nHost: a\r\nX: caf\u{e9}\r\n\r\n", ok("GET / ")),
  .init("incomplete head", "GET / HTTP/1.1\r\nHost: a\r\n", partial),
  .init(
    "incomplete body", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel", partial),

  // Malformed request lines: 400.
  .init("no version (HTTP/0.9)", "GET /\r\n\r\n", refused(400)),
  .init("double space", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("trailing space", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", refused(400)),
  .init("lower-case version", "GET / http/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("version garbage", "GET / HTTP/1.1x\r\nHost: a\r\n\r\n", refused(400)),
  .init("method with slash", "GE/T / HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("target not origin form", "GET foo HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("asterisk for GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("tab in request line", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("control byte in target", "GET /a\u{1}b HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("non-ASCII in target", "GET /caf\u{e9} HTTP/1.1\r\nHost: a\r\n\r\n", refused(400)),
  .init("bare LF", "GET / HTTP/1.1\nHost: a\n\n", refused(400)),
  .init("bare CR", "GET / HTTP/1.1\rHost: a\r\n\r\n", refused(400)),
  .init("too many empty lines", "\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\n", refused(400)),
  .init(
    bytes: Array("GET /\0 HTTP/1.1\r\nHost: a\r\n\r\n".utf8), refusedCase: "NUL in request line"),
  .init("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", refused(505)),
  .init("HTTP/0.9 version", "GET / HTTP/0.9\r\nHost: a\r\n\r\n", refused(505)),
  .init(
    "request line over limit", "GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\n",
    refused(414), limits: small),
  .init(
    "request line limit without CRLF yet", "GET /" + String(repeating: "a", count: 40),
    refused(414), limits: small),

  // Header fields.
  .init("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n  2\r\n\r\n", refused(400)),
  .init("obs-fold with tab", "GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n\t2\r\n\r\n", refused(400)),
  .init("space before colon", "GET / HTTP/1.1\r\nHost: a\r\nX : 1\r\n\r\n", refused(400)),
  .init("no colon", "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", refused(400)),
  .init("empty name", "GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", refused(400)),
  .init("NUL in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", refused(400)),
  .init("control byte in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7}b\r\n\r\n", refused(400)),
  .init("DEL in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{7F}b\r\n\r\n", refused(400)),
  .init("bare CR in value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", refused(400)),
  .init("missing Host in 1.1", "GET / HTTP/1.1\r\nX: 1\r\n\r\n", refused(400)),
  .init("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", refused(400)),
  .init(
    "header block over limit",
    "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 70) + "\r\n\r\n",
    refused(431), limits: small),
  .init(
    "too many fields", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", refused(431),
    limits: small),
  .init(
    "exactly the field limit", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n", ok("GET / "),
    limits: small),

  // Body framing and smuggling.
  .init(
    "CL and TE",
    "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    refused(400)),
  .init(
    "TE and CL",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
    refused(400)),
  .init(
    "two Content-Length",
    "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", refused(400)),
  .init(
    "Content-Length list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 3\r\n\r\nabc",
    refused(400)),
  .init(
    "Content-Length +5", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello",
    refused(400)),
  .init(
    "Content-Length -1", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", refused(400)),
  .init(
    "Content-Length hex", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\n", refused(400)),
  .init(
    "Content-Length empty", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", refused(400)),
  .init(
    "Content-Length inner space", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\n",
    refused(400)),
  .init(
    "Content-Length overflow",
    "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", refused(413)),
  .init(
    "Content-Length over limit", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n",
    refused(413), limits: small),
  .init(
    "Content-Length at limit", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789",
    ok("POST / 0123456789"), limits: small),
  .init(
    "TE not chunked", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n",
    refused(400)),
  .init(
    "TE chunked not last", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
    refused(400)),
  .init(
    "TE gzip then chunked",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", refused(501)),
  .init(
    "TE chunked twice",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
    refused(501)),
  .init(
    "TE with vertical tab", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \u{B}chunked\r\n\r\n",
    refused(400)),
  .init(
    "TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", refused(400)
  ),
  .init(
    "chunk size not hex", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    refused(400)),
  .init(
    "chunk size empty", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
    refused(400)),
  .init(
    "chunk size with sign",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
    refused(400)),
  .init(
    "chunk size 0x prefix",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n",
    refused(400)),
  .init(
    "huge chunk size",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n",
    refused(413)),
  .init(
    "chunk over body limit",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nB\r\n", refused(413),
    limits: small),
  .init(
    "chunks add over limit",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n123456\r\n6\r\n",
    refused(413), limits: small),
  .init(
    "chunk data without CRLF",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n",
    refused(400)),
  .init(
    "chunk data with bare LF",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\n0\r\n\r\n",
    refused(400)),
  .init(
    "chunk extension with control",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;a\u{1}\r\nabc\r\n0\r\n\r\n",
    refused(400)),
  .init(
    "chunk size line too long",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;"
      + String(repeating: "x", count: 5000), refused(400)),
  .init(
    "obs-fold in trailer",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n 2\r\n\r\n",
    refused(400)),
  .init(
    "malformed trailer",
    "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n",
    refused(400)),
]

extension ParserCase {
  init(bytes: [UInt8], refusedCase name: String) {
    self.init(name, bytes: bytes, ParseOutcome(failure: 400))
  }
}

@Suite struct HTTPRequestParserTests {
  @Test(arguments: parserCases)
  func wholeInput(_ c: ParserCase) {
    #expect(parse([c.input], limits: c.limits) == c.expected)
  }

  @Test(arguments: parserCases)
  func splitAtEveryByteBoundary(_ c: ParserCase) {
    for cut in 0...c.input.count {
      let pieces = [Array(c.input[..<cut]), Array(c.input[cut...])]
      let outcome = parse(pieces, limits: c.limits)
      #expect(outcome == c.expected, "split at \(cut)")
      if outcome != c.expected { break }
    }
  }

  @Test(arguments: parserCases)
  func oneByteAtATime(_ c: ParserCase) {
    #expect(parse(c.input.map { [$0] }, limits: c.limits) == c.expected)
  }

  @Test func headerValuesAreTrimmedAndKeptInOrder() {
    var parser = HTTPRequestParser()
    let (event, used) = parser.consume(
      Array("GET / HTTP/1.1\r\nHost:  a \r\nX-A:\t1\r\nx-a: 2\r\n\r\nrest".utf8))
    guard case .request(let r) = event else {
      Issue.record("expected a request, got \(event)")
      return
    }
    #expect(used == 45)
    #expect(r.headers["host"] == "a")
    #expect(r.headers.values(for: "X-A") == ["1", "2"])
    #expect(r.version == (1, 1))
  }

  @Test func keepAliveRules() {
    func keepAlive(_ text: String) -> Bool? {
      var parser = HTTPRequestParser()
      guard case .request(let r) = parser.consume(Array(text.utf8)).event else { return nil }
      return r.keepAlive
    }
    #expect(keepAlive("GET / HTTP/1.1\r\nHost: a\r\n\r\n") == true)
    #expect(keepAlive("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n") == false)
    #expect(keepAlive("GET / HTTP/1.1\r\nHost: a\r\nConnection: foo, Close\r\n\r\n") == false)
    #expect(keepAlive("GET / HTTP/1.0\r\n\r\n") == false)
    #expect(keepAlive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n") == true)
  }

  @Test func headCompleteIsReportedBeforeTheBody() {
    var parser = HTTPRequestParser()
    let head = Array(
      "POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8)
    #expect(parser.consume(head).event == .headComplete)
    #expect(parser.headerValue("expect") == "100-continue")
    #expect(parser.isReadingBody)
    guard case .request(let r) = parser.consume(Array("ok".utf8)).event else {
      Issue.record("expected the request")
      return
    }
    #expect(r.body == Array("ok".utf8))
    #expect(r.expectsContinue == true)
  }

  @Test func parserRefusesInputAfterAFailure() {
    var parser = HTTPRequestParser()
    guard case .failure = parser.consume(Array("BAD\r\n".utf8)).event else {
      Issue.record("expected a failure")
      return
    }
    guard case .failure = parser.consume(Array("GET / HTTP/1.1\r\n".utf8)).event else {
      Issue.record("expected the parser to stay failed")
      return
    }
  }
}
