import Foundation
import Testing

@testable import HTTPServer

/// Small limits whose body limit depends on the head, for the table below: `/big` with
/// `X-Key: k` may send 20 bytes, `/huge` asks for 1000 and gets the ceiling (30), `/none` 0,
/// `/negative` -5 (read as 0); everything else keeps `maxBodyBytes` (10).
let decidedLimits = HTTPParserLimits(
  maxRequestLineBytes: 64, maxHeaderBytes: 256, maxHeaderCount: 6, maxBodyBytes: 10,
  bodyLimitCeiling: 30,
  bodyLimit: { head in
    switch head.pathSegments.first {
    case "big": head.headers["x-key"] == "k" ? 20 : nil
    case "huge": 1000
    case "none": 0
    case "negative": -5
    default: nil
    }
  })

private func ok(_ requests: String...) -> ParseOutcome { ParseOutcome(requests: requests) }
private func refused(_ status: Int) -> ParseOutcome { ParseOutcome(failure: status) }

private func post(_ target: String, key: Bool = false, length: Int, body: String = "")
  -> String
{
  "POST \(target) HTTP/1.1\r\nHost: a\r\n" + (key ? "X-Key: k\r\n" : "")
    + "Content-Length: \(length)\r\n\r\n" + body
}

private func chunked(_ target: String, key: Bool = false, _ chunks: [String]) -> String {
  "POST \(target) HTTP/1.1\r\nHost: a\r\n" + (key ? "X-Key: k\r\n" : "")
    + "Transfer-Encoding: chunked\r\n\r\n"
    + chunks.map { String($0.utf8.count, radix: 16) + "\r\n" + $0 + "\r\n" }.joined()
    + "0\r\n\r\n"
}

private let twenty = String(repeating: "x", count: 20)
private let thirty = String(repeating: "y", count: 30)

let bodyLimitCases: [ParserCase] = [
  .init(
    "granted: Content-Length at the larger limit",
    post("/big", key: true, length: 20, body: twenty), ok("POST /big \(twenty)"),
    limits: decidedLimits),
  .init(
    "granted: Content-Length over the larger limit", post("/big", key: true, length: 21),
    refused(413), limits: decidedLimits),
  .init(
    "not granted: Content-Length over the default", post("/big", length: 11), refused(413),
    limits: decidedLimits),
  .init(
    "not granted: Content-Length at the default",
    post("/big", length: 10, body: "0123456789"), ok("POST /big 0123456789"),
    limits: decidedLimits),
  .init(
    "granted: chunks adding up to the larger limit",
    chunked("/big", key: true, ["0123456789", "abcdefghij"]),
    ok("POST /big 0123456789abcdefghij"), limits: decidedLimits),
  .init(
    "granted: chunks adding up past the larger limit",
    chunked("/big", key: true, ["0123456789", "abcdefghijk"]), refused(413),
    limits: decidedLimits),
  .init(
    "not granted: one chunk over the default", chunked("/big", ["abcdefghijk"]), refused(413),
    limits: decidedLimits),
  .init(
    "not granted: chunks adding up past the default", chunked("/big", ["abcdef", "ghijk"]),
    refused(413), limits: decidedLimits),
  .init(
    "an answer over the ceiling is lowered to it",
    post("/huge", length: 30, body: thirty), ok("POST /huge \(thirty)"), limits: decidedLimits),
  .init(
    "an answer over the ceiling: one byte more", post("/huge", length: 31), refused(413),
    limits: decidedLimits),
  .init(
    "an answer over the ceiling: chunked", chunked("/huge", [thirty, "z"]), refused(413),
    limits: decidedLimits),
  .init("limit 0 refuses any body", post("/none", length: 1), refused(413), limits: decidedLimits),
  .init(
    "limit 0 still takes an empty body", post("/none", length: 0), ok("POST /none "),
    limits: decidedLimits),
  .init(
    "limit 0 refuses any chunk", chunked("/none", ["a"]), refused(413), limits: decidedLimits),
  .init(
    "limit 0 takes an empty chunked body", chunked("/none", []), ok("POST /none "),
    limits: decidedLimits),
  .init(
    "a negative answer is 0", post("/negative", length: 1), refused(413), limits: decidedLimits
  ),
  .init(
    "the path is matched percent-decoded",
    post("/b%69g?q=1", key: true, length: 20, body: twenty), ok("POST /b%69g?q=1 \(twenty)"),
    limits: decidedLimits),
  .init(
    "an overflowing Content-Length is over every limit",
    post("/huge", length: 0).replacingOccurrences(
      of: "Content-Length: 0", with: "Content-Length: 99999999999999999999999"), refused(413),
    limits: decidedLimits),
  .init(
    "each pipelined request gets its own limit: granted, then not",
    post("/big", key: true, length: 15, body: String(twenty.prefix(15)))
      + post("/big", length: 15),
    ParseOutcome(requests: ["POST /big \(String(twenty.prefix(15)))"], failure: 413),
    limits: decidedLimits),
  .init(
    "each pipelined request gets its own limit: not, then granted",
    post("/big", length: 5, body: "abcde")
      + post("/big", key: true, length: 15, body: String(twenty.prefix(15))),
    ok("POST /big abcde", "POST /big \(String(twenty.prefix(15)))"), limits: decidedLimits),
  .init(
    "smuggling checks come first: CL with TE is 400, not 413",
    "POST /big HTTP/1.1\r\nHost: a\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n",
    refused(400), limits: decidedLimits),
]

@Suite struct BodyLimitParserTests {
  @Test(arguments: bodyLimitCases)
  func wholeInput(_ c: ParserCase) {
    #expect(parse([c.input], limits: c.limits) == c.expected)
  }

  @Test(arguments: bodyLimitCases)
  func splitAtEveryByteBoundary(_ c: ParserCase) {
    for cut in 0...c.input.count {
      let outcome = parse([Array(c.input[..<cut]), Array(c.input[cut...])], limits: c.limits)
      #expect(outcome == c.expected, "split at \(cut)")
      if outcome != c.expected { break }
    }
  }

  @Test(arguments: bodyLimitCases)
  func oneByteAtATime(_ c: ParserCase) {
    #expect(parse(c.input.map { [$0] }, limits: c.limits) == c.expected)
  }

  @Test func theDeciderSeesTheHeadOnceForEachRequestWithABody() {
    let heads = LockedArray<HTTPRequestHead>()
    var limits = HTTPParserLimits(maxBodyBytes: 10)
    limits.bodyLimit = { head in
      heads.append(head)
      return nil
    }
    let input =
      "GET /no-body HTTP/1.1\r\nHost: a\r\n\r\n"
      + "POST /empty HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
      + "POST /api/p%2Fq/x?token=t HTTP/1.0\r\nX-A: 1\r\nContent-Length: 2\r\n\r\nhi"
      + "PUT http://h.example/c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    let outcome = parse([Array(input.utf8)], limits: limits)
    #expect(outcome.requests.count == 4)
    let seen = heads.values
    #expect(seen.count == 2)
    guard seen.count == 2 else { return }
    #expect(seen[0].method == .post)
    #expect(seen[0].target == "/api/p%2Fq/x?token=t")
    #expect(seen[0].path == "/api/p/q/x")
    #expect(seen[0].pathSegments == ["api", "p/q", "x"])
    #expect(seen[0].version == (1, 0))
    #expect(seen[0].headers["x-a"] == "1")
    #expect(seen[0].headers["content-length"] == "2")
    #expect(seen[1].method == .put)
    #expect(seen[1].target == "/c")
    #expect(seen[1].headers["transfer-encoding"] == "chunked")
  }

  @Test func theDecidedLimitIsReportedAndResetForTheNextRequest() {
    var parser = HTTPRequestParser(limits: decidedLimits)
    let head = Array(post("/big", key: true, length: 2).utf8)
    #expect(parser.consume(head).event == .headComplete)
    #expect(parser.currentBodyLimit == 20)
    guard case .request = parser.consume(Array("ok".utf8)).event else {
      Issue.record("expected the request")
      return
    }
    #expect(parser.consume(Array(post("/other", length: 2).utf8)).event == .headComplete)
    #expect(parser.currentBodyLimit == 10)
  }

  @Test func withoutADeciderEveryRequestHasMaxBodyBytes() {
    let limits = HTTPParserLimits(maxBodyBytes: 10, bodyLimitCeiling: 1000)
    #expect(parse([Array(post("/huge", length: 11).utf8)], limits: limits) == refused(413))
    #expect(limits.bodyLimit(for: HTTPRequestHead(method: .post, target: "/huge")) == 10)
    #expect(decidedLimits.bodyLimit(for: HTTPRequestHead(method: .post, target: "/huge")) == 30)
    #expect(decidedLimits.bodyLimit(for: HTTPRequestHead(method: .post, target: "/x")) == 10)
  }
}
