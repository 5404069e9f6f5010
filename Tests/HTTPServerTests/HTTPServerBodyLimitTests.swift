import Foundation
import Testing

@testable import HTTPServer

/// Body limits decided per request, over real sockets: `/echo` with `X-Key: k` may send
/// 2 MiB + 1 KiB; every other request keeps the 1 MiB default.
@Suite struct HTTPServerBodyLimitTests {
  static let granted = 2 << 20 + 1024

  static func start() throws -> HTTPServer {
    try startTestServer {
      $0.bodyLimitCeiling = 4 << 20
      $0.bodyLimit = { head in
        head.path == "/echo" && head.headers["x-key"] == "k"
          ? HTTPServerBodyLimitTests.granted : nil
      }
    }
  }

  @Test func aRequestWithoutTheGrantIsRefusedFromItsHeadAlone() async throws {
    let server = try Self.start()
    let port = server.port
    let (status, body, closed) = try await offPool { () -> (Int, String, Bool) in
      let client = try RawClient(port: port)
      // No body byte is ever sent: the 413 can only come from the head.
      try client.send(
        "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: \(2 << 20)\r\n\r\n"
      )
      let response = try client.readResponse()
      return (response?.status ?? 0, response?.text ?? "", try client.readsEndOfStream())
    }
    #expect(status == 413)
    #expect(body.contains("exceeds 1048576 bytes"))
    #expect(closed)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aGrantedRequestSendsItsLargerBodyAfter100Continue() async throws {
    let server = try Self.start()
    let port = server.port
    let payload = [UInt8]((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
    let (interim, echoed) = try await offPool { () -> (Int, [UInt8]) in
      let client = try RawClient(port: port)
      try client.send(
        "POST /echo HTTP/1.1\r\nHost: a\r\nX-Key: k\r\nExpect: 100-continue\r\n"
          + "Content-Length: \(payload.count)\r\n\r\n")
      let interim = try client.readResponse()?.status ?? 0
      try client.send(payload)
      return (interim, try client.readResponse()?.body ?? [])
    }
    #expect(interim == 100)
    #expect(echoed == payload)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aGrantedChunkedBodyIsCountedAgainstItsOwnLimit() async throws {
    let server = try Self.start()
    let port = server.port
    let (within, over) = try await offPool { () -> (Int, Int) in
      func send(_ chunks: [Int]) throws -> Int {
        let client = try RawClient(port: port)
        try client.send(
          "POST /echo HTTP/1.1\r\nHost: a\r\nX-Key: k\r\nTransfer-Encoding: chunked\r\n\r\n")
        for size in chunks {
          try client.send(String(size, radix: 16) + "\r\n")
          try client.send([UInt8](repeating: 0x61, count: size) + Array("\r\n".utf8))
        }
        try client.send("0\r\n\r\n")
        let response = try client.readResponse()
        return response?.status == 200 ? response?.body.count ?? 0 : response?.status ?? 0
      }
      // 2 MiB + 1 KiB exactly, then one byte more.
      return (try send([1 << 20, 1 << 20, 1024]), try send([1 << 20, 1 << 20, 1025]))
    }
    #expect(within == Self.granted)
    #expect(over == 413)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}

/// `HTTPServerConfiguration.refusal` shapes the server's own refusals: it is given the head
/// of a request whose body is over its limit, and no head for a malformed one.
@Suite struct HTTPServerRefusalTests {
  static func start() throws -> HTTPServer {
    try startTestServer {
      $0.refusal = { refusal in
        guard let head = refusal.head else { return nil }
        // A status of its own is ignored: the status stays the server's.
        return .json(#"{"refused":"\#(head.method.rawValue) \#(head.path)"}"#, status: 299)
      }
    }
  }

  @Test func aBodyOverItsLimitIsAnsweredByTheShaperWithItsHead() async throws {
    let server = try Self.start()
    let port = server.port
    let (status, body, closed) = try await offPool { () -> (Int, String, Bool) in
      let client = try RawClient(port: port)
      try client.send(
        "POST /api/things?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: \(2 << 20)\r\n\r\n")
      let response = try client.readResponse()
      return (response?.status ?? 0, response?.text ?? "", try client.readsEndOfStream())
    }
    #expect(status == 413)
    #expect(body == #"{"refused":"POST /api/things"}"#)
    #expect(closed)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aChunkedBodyOverItsLimitToo() async throws {
    let server = try Self.start()
    let port = server.port
    let (status, body) = try await offPool { () -> (Int, String) in
      let client = try RawClient(port: port)
      try client.send(
        "POST /chunks HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "\(String(2 << 20, radix: 16))\r\n")
      let response = try client.readResponse()
      return (response?.status ?? 0, response?.text ?? "")
    }
    #expect(status == 413)
    #expect(body == #"{"refused":"POST /chunks"}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aMalformedRequestHasNoHeadAndGetsTheServersOwnAnswer() async throws {
    let server = try Self.start()
    let port = server.port
    let (status, body) = try await offPool { () -> (Int, String) in
      let client = try RawClient(port: port)
      try client.send("GET /x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n")
      let response = try client.readResponse()
      return (response?.status ?? 0, response?.text ?? "")
    }
    #expect(status == 400)
    #expect(body == #"{"error":"malformed header field"}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}
