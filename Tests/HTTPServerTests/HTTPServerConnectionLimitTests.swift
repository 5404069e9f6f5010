import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// The per-address connection limit (issue 7, item 2), live over loopback: 127.0.0.1 and
/// 127.0.0.2 are two clients (any 127.0.0.0/8 address is local on Linux).
@Suite(.timeLimit(.minutes(3))) struct HTTPServerConnectionLimitTests {
  static let hello = "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"

  /// Opens `count` connections from `source`, each answered once (so the server holds it).
  static func open(_ count: Int, from source: String, port: Int) throws -> [RawClient] {
    try (0..<count).map { _ in
      let client = try RawClient(port: port, source: source)
      try client.send(hello)
      guard try client.readResponse()?.status == 200 else {
        throw RawClient.Failure(description: "a connection within the limit was refused")
      }
      return client
    }
  }

  @Test func oneAddressAtItsLimitIsRefusedAndOthersAreServed() async throws {
    let server = try startTestServer {
      HTTPServerShutdownTests.patient(&$0)
      $0.maxConnectionsPerAddress = 50
    }
    let port = server.port
    let result = try await offPool { () -> (Int, String, Bool, Int, Int, Int) in
      let held = try Self.open(50, from: "127.0.0.1", port: port)
      // The 51st from the same address: 503, then closed.
      let over = try RawClient(port: port, source: "127.0.0.1")
      let refused = try over.readResponse()
      let closed = try over.readsEndOfStream()
      // Another address is served meanwhile, and so are the held connections.
      let other = try RawClient(port: port, source: "127.0.0.2")
      try other.send(Self.hello)
      let otherStatus = try other.readResponse()?.status ?? 0
      try held[0].send(Self.hello)
      let heldStatus = try held[0].readResponse()?.status ?? 0
      // Once one of them closes, the address gets its place back.
      Glibc.shutdown(held[49].fd, Int32(SHUT_WR))
      _ = try held[49].readsEndOfStream()
      var again = 0
      for _ in 0..<3000 where again != 200 {
        let client = try RawClient(port: port, source: "127.0.0.1")
        try? client.send(Self.hello)
        again = (try? client.readResponse()?.status) ?? 0
        if again != 200 { usleep(10_000) }
      }
      return (refused?.status ?? 0, refused?.text ?? "", closed, otherStatus, heldStatus, again)
    }
    #expect(result.0 == 503)
    #expect(result.1 == #"{"error":"too many connections from this address"}"#)
    #expect(result.2)
    #expect(result.3 == 200)
    #expect(result.4 == 200)
    #expect(result.5 == 200)
    await server.shutdown(gracePeriod: .seconds(5))
  }

  /// Bug: the 503 to a connection over a limit was the server's bare `{"error":…}`, never
  /// shaped by `refusal` as its other refusals are, so `roadmapctl serve` sent it without
  /// CORS headers (a browser saw a network error, not the 503) and without
  /// `X-Content-Type-Options: nosniff`, unlike every other answer it makes.
  @Test func theRefusalOverALimitIsShapedByRefusal() async throws {
    let server = try startTestServer {
      HTTPServerShutdownTests.patient(&$0)
      $0.maxConnectionsPerAddress = 1
      $0.refusal = { refusal in
        var response = HTTPResponse.json(#"{"shaped":"\#(refusal.reason)"}"#)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        return response
      }
    }
    let port = server.port
    let refused = try await offPool { () -> RawClient.Response? in
      let held = try Self.open(1, from: "127.0.0.4", port: port)
      let over = try RawClient(port: port, source: "127.0.0.4")
      let response = try over.readResponse()
      withExtendedLifetime(held) {}
      return response
    }
    #expect(refused?.status == 503)
    #expect(refused?.text == #"{"shaped":"too many connections from this address"}"#)
    #expect(refused?.header("X-Content-Type-Options") == "nosniff")
    #expect(refused?.header("Connection") == "close")
    await server.shutdown(gracePeriod: .seconds(5))
  }

  @Test func exemptAddressesAndAnUnsetLimitAreNotCounted() async throws {
    let server = try startTestServer {
      HTTPServerShutdownTests.patient(&$0)
      $0.maxConnectionsPerAddress = 2
      $0.connectionLimitExemptAddresses = ["127.0.0.1"]
    }
    let port = server.port
    let statuses = try await offPool { () -> (Int, Int) in
      // The exempt address (a proxy's) opens more than the limit.
      let exempt = try Self.open(5, from: "127.0.0.1", port: port)
      // Another address is still limited.
      let limited = try Self.open(2, from: "127.0.0.2", port: port)
      let over = try RawClient(port: port, source: "127.0.0.2")
      let overStatus = try over.readResponse()?.status ?? 0
      return (exempt.count + limited.count, overStatus)
    }
    #expect(statuses.0 == 7)
    #expect(statuses.1 == 503)
    await server.shutdown(gracePeriod: .seconds(5))

    let unlimited = try startTestServer {
      HTTPServerShutdownTests.patient(&$0)
      $0.maxConnectionsPerAddress = nil
    }
    let unlimitedPort = unlimited.port
    let count = try await offPool {
      try Self.open(20, from: "127.0.0.3", port: unlimitedPort).count
    }
    #expect(count == 20)
    await unlimited.shutdown(gracePeriod: .seconds(5))
  }

  @Test func theDefaultIsATenthOfTheConnectionTable() {
    let configuration = HTTPServerConfiguration()
    #expect(configuration.maxConnectionsPerAddress == 1_000)
    #expect(configuration.maxConnectionsPerAddress! * 10 == configuration.maxConnections)
  }

  @Test func aZeroOrNegativeLimitIsAnInvalidConfiguration() {
    for limit in [0, -1] {
      var configuration = HTTPServerConfiguration(port: 0)
      configuration.maxConnectionsPerAddress = limit
      do {
        try HTTPServer(configuration: configuration, handler: { _ in HTTPResponse() }).start()
        Issue.record("maxConnectionsPerAddress \(limit) must be refused")
      } catch {
        #expect(error.kind == .invalidConfiguration)
        #expect(error.message.contains("maxConnectionsPerAddress"))
      }
    }
  }

  @Test func addressesCountAsIPv4OrAnIPv6Slash64() {
    #expect(EventLoop.addressKey("127.0.0.1") == "127.0.0.1")
    #expect(EventLoop.addressKey("::ffff:10.0.0.7") == "10.0.0.7")
    let a = EventLoop.addressKey("2001:db8:0:1::1")
    #expect(a == "20010db800000001::/64")
    #expect(EventLoop.addressKey("2001:db8:0:1:ffff:ffff:ffff:fffe") == a)
    #expect(EventLoop.addressKey("2001:db8:0:2::1") != a)
    #expect(EventLoop.addressKey("::1") == "0000000000000000::/64")
  }

  @Test func aHandlersConnectionCloseEndsTheConnectionAfterItsAnswer() async throws {
    // What the rate limiter's 429 relies on: nothing after it is answered on that connection.
    let server = try startTestServer()
    let port = server.port
    let (first, rest) = try await offPool { () -> (RawClient.Response?, Bool) in
      let client = try RawClient(port: port)
      try client.send("GET /close HTTP/1.1\r\nHost: a\r\n\r\n" + Self.hello)
      return (try client.readResponse(), try client.readsEndOfStream())
    }
    #expect(first?.status == 200)
    #expect(first?.header("Connection") == "close")
    #expect(first?.text == "bye")
    #expect(rest)
    await server.shutdown(gracePeriod: .seconds(5))
  }
}
