import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// One hostile request sent over a real socket, and the status that must answer it.
struct HostileCase: CustomTestStringConvertible, Sendable {
  var name: String
  var request: String
  var status: Int
  var testDescription: String { name }
}

let hostileCases: [HostileCase] = [
  .init(
    name: "CL with TE",
    request:
      "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    status: 400),
  .init(
    name: "two Content-Length",
    request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    status: 400),
  .init(
    name: "Content-Length +5",
    request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello", status: 400),
  .init(
    name: "obs-fold", request: "GET /hello HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", status: 400),
  .init(
    name: "NUL byte", request: "GET /hello HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", status: 400),
  .init(name: "bad request line", request: "GET /hello\r\n\r\n", status: 400),
  .init(name: "missing Host", request: "GET /hello HTTP/1.1\r\n\r\n", status: 400),
  .init(
    name: "request line too long",
    request: "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n",
    status: 414),
  .init(
    name: "header block too large",
    request: "GET /hello HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 40000)
      + "\r\n\r\n", status: 431),
  .init(
    name: "too many header fields",
    request: "GET /hello HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X: 1\r\n", count: 101)
      + "\r\n", status: 431),
  .init(
    name: "Content-Length over limit",
    request: "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n", status: 413),
  .init(
    name: "chunked over limit",
    request: "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n",
    status: 413),
  .init(
    name: "unsupported transfer coding",
    request: "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
    status: 501),
  .init(name: "HTTP/2.0", request: "GET /hello HTTP/2.0\r\nHost: a\r\n\r\n", status: 505),
  .init(
    name: "unknown expectation",
    request: "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: magic\r\nContent-Length: 2\r\n\r\nhi",
    status: 417),
]

/// Live tests over raw sockets, for what no polite client sends.
@Suite struct HTTPServerRawTests {
  @Test(arguments: hostileCases)
  func hostileRequestIsRefusedAndClosed(_ c: HostileCase) async throws {
    let server = try startTestServer()
    let port = server.port
    let (status, closed, connection) = try await offPool { () -> (Int, Bool, String?) in
      let client = try RawClient(port: port)
      try client.send(c.request)
      let response = try #require(try client.readResponse())
      return (response.status, try client.readsEndOfStream(), response.header("Connection"))
    }
    #expect(status == c.status)
    #expect(connection == "close")
    #expect(closed)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func unknownMethodIs501AndKeepsTheConnection() async throws {
    let server = try startTestServer()
    let port = server.port
    let statuses = try await offPool { () -> [Int] in
      let client = try RawClient(port: port)
      try client.send("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      return [try client.readResponse()?.status ?? 0, try client.readResponse()?.status ?? 0]
    }
    #expect(statuses == [501, 200])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func manyPipelinedUnknownMethodsDoNotRecurse() async throws {
    let server = try startTestServer()
    let port = server.port
    let statuses = try await offPool { () -> Set<Int> in
      let client = try RawClient(port: port)
      try client.send(
        String(repeating: "BREW / HTTP/1.1\r\nHost: a\r\n\r\n", count: 5000)
          + "GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      var seen: Set<Int> = []
      var count = 0
      while let r = try client.readResponse() {
        seen.insert(r.status)
        count += 1
      }
      return count == 5001 ? seen : []
    }
    #expect(statuses == [501, 200])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func expectContinueWithTheBodyAlreadySent() async throws {
    let server = try startTestServer()
    let port = server.port
    let statuses = try await offPool { () -> [String] in
      let client = try RawClient(port: port)
      try client.send(
        "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\nbody"
          + "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      var out: [String] = []
      for _ in 0..<3 {
        guard let r = try client.readResponse() else { break }
        out.append("\(r.status) \(r.text)")
      }
      return out
    }
    #expect(statuses == ["100 ", "200 body", #"200 {"hello":"world"}"#])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
    let server = try startTestServer()
    let port = server.port
    let bodies = try await offPool { () -> [String] in
      let client = try RawClient(port: port)
      // The first request is the slowest: its answer must still come first.
      try client.send(
        "GET /sleep/200 HTTP/1.1\r\nHost: a\r\n\r\n"
          + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
          + "GET /sleep/0 HTTP/1.1\r\nHost: a\r\n\r\n"
          + "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nde\r\n0\r\n\r\n"
          + "GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      var bodies: [String] = []
      while let response = try client.readResponse() { bodies.append(response.text) }
      return bodies
    }
    #expect(
      bodies == [
        #"{"slept":200}"#, "abc", #"{"slept":0}"#, "de", #"{"hello":"world"}"#,
      ])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func manyPipelinedRequestsInOneWrite() async throws {
    let server = try startTestServer()
    let port = server.port
    let count = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      let one = "GET /get/ns/k HTTP/1.1\r\nHost: a\r\n\r\n"
      try client.send(
        String(repeating: one, count: 2000)
          + "GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      var n = 0
      while try client.readResponse() != nil { n += 1 }
      return n
    }
    #expect(count == 2001)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func headHasLengthButNoBody() async throws {
    let server = try startTestServer()
    let port = server.port
    let (head, next) = try await offPool { () -> (RawClient.Response?, RawClient.Response?) in
      let client = try RawClient(port: port)
      try client.send(
        "HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      return (try client.readResponse(headRequest: true), try client.readResponse())
    }
    #expect(head?.status == 200)
    #expect(head?.header("Content-Length") == "17")
    #expect(head?.body.isEmpty == true)
    // The next response starts right after the head: no stray body bytes in between.
    #expect(next?.text == #"{"hello":"world"}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func expectContinueGetsInterim100() async throws {
    let server = try startTestServer()
    let port = server.port
    let (interim, final) = try await offPool { () -> (Int, String) in
      let client = try RawClient(port: port)
      try client.send(
        "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
      let interim = try client.readResponse()?.status ?? 0
      try client.send("body")
      return (interim, try client.readResponse()?.text ?? "")
    }
    #expect(interim == 100)
    #expect(final == "body")
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func http10KeepAliveAndDefaultClose() async throws {
    let server = try startTestServer()
    let port = server.port
    let result = try await offPool { () -> (String?, Int, String?, Bool) in
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
      let first = try client.readResponse()
      try client.send("GET /hello HTTP/1.0\r\n\r\n")
      let second = try client.readResponse()
      return (
        first?.header("Connection"), second?.status ?? 0, second?.header("Connection"),
        try client.readsEndOfStream()
      )
    }
    #expect(result.0 == "keep-alive")
    #expect(result.1 == 200)
    #expect(result.2 == "close")
    #expect(result.3)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func bodylessStatusesAndInvalidStatus() async throws {
    let server = try startTestServer()
    let port = server.port
    let answers = try await offPool { () -> [String] in
      let client = try RawClient(port: port)
      var out: [String] = []
      for code in [204, 304, 42] {
        try client.send("GET /status/\(code) HTTP/1.1\r\nHost: a\r\n\r\n")
        let r = try client.readResponse()
        out.append("\(r?.status ?? 0) \(r?.header("Content-Length") ?? "-") \(r?.text ?? "")")
      }
      // The connection is still in step: nothing stray was sent after the bodyless answers.
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      out.append(try client.readResponse()?.text ?? "")
      return out
    }
    #expect(answers == ["204 - ", "304 - ", "500 4 body", #"{"hello":"world"}"#])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func clientResetMidResponseLeavesTheServerServing() async throws {
    let server = try startTestServer()
    let port = server.port
    let status = try await offPool { () -> Int in
      for _ in 0..<5 {
        let rude = try RawClient(port: port)
        try rude.send("GET /big/8 HTTP/1.1\r\nHost: a\r\n\r\n")
        var hard = linger(l_onoff: 1, l_linger: 0)
        setsockopt(rude.fd, SOL_SOCKET, SO_LINGER, &hard, socklen_t(MemoryLayout<linger>.size))
      }  // each closes with a reset while its 8 MiB answer is being written
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      return try client.readResponse()?.status ?? 0
    }
    #expect(status == 200)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func serverOwnsFramingHeadersAndDropsInjectedOnes() async throws {
    let server = try startTestServer()
    let port = server.port
    let (injected, closing) = try await offPool { () -> (RawClient.Response?, (Int, Bool)) in
      let client = try RawClient(port: port)
      try client.send("GET /inject HTTP/1.1\r\nHost: a\r\n\r\n")
      let injected = try client.readResponse()
      try client.send("GET /close HTTP/1.1\r\nHost: a\r\n\r\n")
      let closing = try client.readResponse()
      return (injected, (closing?.status ?? 0, try client.readsEndOfStream()))
    }
    #expect(injected?.header("X-Bad") == nil)
    #expect(injected?.header("Set-Cookie") == nil)
    #expect(injected?.header("X-Good") == "fine")
    #expect(injected?.header("Content-Length") == "0")
    #expect(injected?.header("Date")?.hasSuffix(" GMT") == true)
    #expect(closing.0 == 200)
    #expect(closing.1)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}

/// `refusalLog` hears of every answer the server makes by itself, and of nothing else.
@Suite struct HTTPServerRefusalLogTests {
  /// The entries given to `refusalLog`, in order.
  final class Entries: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [AccessLogEntry] = []
    func append(_ entry: AccessLogEntry) { lock.withLock { entries.append(entry) } }
    var all: [AccessLogEntry] { lock.withLock { entries } }
  }

  @Test func everyRefusalIsGivenToTheRefusalLogOnce() async throws {
    let entries = Entries()
    let server = try startTestServer { configuration in
      configuration.refusalLog = { entries.append($0) }
    }
    let port = server.port
    for c in hostileCases {
      let status = try await offPool { () -> Int in
        let client = try RawClient(port: port)
        try client.send(c.request)
        return try client.readResponse()?.status ?? 0
      }
      #expect(status == c.status, "\(c.name)")
    }
    // A handler's answer, and an unknown method (501, the connection kept).
    let statuses = try await offPool { () -> [Int] in
      let client = try RawClient(port: port)
      try client.send(
        "GET /hello HTTP/1.1\r\nHost: a\r\n\r\nBREW /pot?x=1 HTTP/1.1\r\nHost: a\r\n\r\n")
      return [try client.readResponse()?.status ?? 0, try client.readResponse()?.status ?? 0]
    }
    #expect(statuses == [200, 501])
    await server.shutdown(gracePeriod: .seconds(2))
    let logged = entries.all
    #expect(logged.map(\.status) == hostileCases.map(\.status) + [501])
    #expect(logged.allSatisfy { $0.peer == "127.0.0.1" && $0.latency == .zero })
    // What the server read of the request: the head of a body over its limit and of an
    // unknown method, nothing of a request line it could not read.
    let overLimit = try #require(logged.first { $0.status == 413 })
    #expect((overLimit.method, overLimit.target) == ("POST", "/echo"))
    #expect((logged.last?.method, logged.last?.target) == ("BREW", "/pot?x=1"))
    let tooLong = try #require(logged.first { $0.status == 414 })
    #expect((tooLong.method, tooLong.target) == ("-", "-"))
  }

  @Test func aSlowClientsTimeoutAndAConnectionOverTheLimitAreLogged() async throws {
    let entries = Entries()
    let server = try startTestServer { configuration in
      configuration.headerReadTimeout = .milliseconds(300)
      configuration.maxConnectionsPerAddress = 1
      configuration.refusalLog = { entries.append($0) }
    }
    let port = server.port
    let statuses = try await offPool { () -> [Int] in
      // From another address, so it never counts against the limit the next two meet.
      let client = try RawClient(port: port, source: "127.0.0.2")
      try client.send("GET /hel")
      let timedOut = try client.readResponse()?.status ?? 0
      let held = try RawClient(port: port)
      let answered = try held.request("/hello")?.status ?? 0
      let refused = try RawClient(port: port).readResponse()?.status ?? 0
      return [timedOut, answered, refused]
    }
    #expect(statuses == [408, 200, 503])
    await server.shutdown(gracePeriod: .seconds(2))
    #expect(entries.all.map(\.status) == [408, 503])
    #expect(entries.all.allSatisfy { $0.method == "-" && $0.target == "-" })
    #expect(entries.all.map(\.peer) == ["127.0.0.2", "127.0.0.1"])
  }
}
