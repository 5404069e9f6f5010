import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// Graceful shutdown over real sockets: every request whose bytes reached the server is
/// answered before its connection closes (issue 7, item 10). The same rules are tabled
/// without sockets in `ConnectionStateMachineTests`.
@Suite(.timeLimit(.minutes(3))) struct HTTPServerShutdownTests {
  /// Timeouts far beyond the tests' steps, which other suites running in parallel on a busy
  /// machine can delay by seconds: only the shutdown may end a connection here.
  static func patient(_ configuration: inout HTTPServerConfiguration) {
    configuration.headerReadTimeout = .seconds(120)
    configuration.bodyReadTimeout = .seconds(120)
    configuration.idleTimeout = .seconds(120)
  }

  @Test func pipelinedRequestsBehindAnInFlightOneAreAllAnsweredTheLastWithClose() async throws {
    let gate = Gate()
    let started = Gate()
    var router = testRouter()
    router.get("/gated") { _ in
      await started.open()
      await gate.wait()
      return .json(#"{"gated":true}"#)
    }
    let server = try startTestServer(Self.patient, handler: router.handler)
    let port = server.port
    let client = try await offPool { try RawClient(port: port) }
    try await offPool {
      try client.send(
        "GET /gated HTTP/1.1\r\nHost: a\r\n\r\n" + "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /get/ns/k HTTP/1.1\r\nHost: a\r\n\r\n")
    }
    await started.wait()
    async let stopped: Void = server.shutdown(gracePeriod: .seconds(60))
    // The shutdown has begun once new connections are refused.
    #expect(try await connectionsGetRefused(port: port))
    await gate.open()
    let answers = try await offPool { () -> [(Int, String?, String)] in
      try (0..<3).map { _ in
        let r = try client.readResponse()
        return (r?.status ?? 0, r?.header("Connection"), r?.text ?? "")
      }
    }
    #expect(answers.map(\.0) == [200, 200, 200])
    #expect(answers.map(\.1) == [nil, nil, "close"])
    #expect(
      answers.map(\.2) == [#"{"gated":true}"#, #"{"hello":"world"}"#, #"{"ns":"ns","key":"k"}"#])
    #expect(try await offPool { try client.readsEndOfStream() })
    await stopped
  }

  /// A connection still holding half a request when the grace period ends is closed, and
  /// counted, so that a server can say why its stop took the whole grace period.
  @Test func connectionsStillOpenAtTheEndOfTheGracePeriodAreCounted() async throws {
    let server = try startTestServer(Self.patient)
    let port = server.port
    let client = try await offPool { () -> RawClient in
      let client = try RawClient(port: port)
      try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab")
      return client
    }
    // An idle connection beside it closes at once and is not counted.
    let idle = try await offPool { try RawClient(port: port) }
    #expect(server.connectionsClosedAtGraceEnd == 0)
    await server.shutdown(gracePeriod: .milliseconds(500))
    #expect(server.connectionsClosedAtGraceEnd == 1)
    #expect(try await offPool { try client.readsEndOfStream() })
    #expect(try await offPool { try idle.readsEndOfStream() })

    let quiet = try startTestServer(Self.patient)
    await quiet.shutdown(gracePeriod: .seconds(60))
    #expect(quiet.connectionsClosedAtGraceEnd == 0)
  }

  @Test func aRequestHalfSentAtShutdownIsReadToTheEndAndAnswered() async throws {
    let server = try startTestServer(Self.patient)
    let port = server.port
    let client = try await offPool { () -> RawClient in
      let client = try RawClient(port: port)
      try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab")
      return client
    }
    // The connection holds part of a request, so the shutdown waits for it.
    async let stopped: Void = server.shutdown(gracePeriod: .seconds(60))
    #expect(try await connectionsGetRefused(port: port))
    let answer = try await offPool { () -> (Int, String?, String, Bool) in
      try client.send("cde")
      let r = try client.readResponse()
      return (r?.status ?? 0, r?.header("Connection"), r?.text ?? "", try client.readsEndOfStream())
    }
    #expect(answer.0 == 200)
    #expect(answer.1 == "close")
    #expect(answer.2 == "abcde")
    #expect(answer.3)
    await stopped
  }

  @Test func requestsSentOnIdleConnectionsJustBeforeShutdownAreAnswered() async throws {
    let server = try startTestServer(Self.patient)
    let port = server.port
    let clients = try await offPool { () -> [RawClient] in
      try (0..<16).map { _ in
        let client = try RawClient(port: port)
        try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try client.readResponse()
        return client
      }
    }
    // Each request is on the wire before the shutdown is asked for: whether the loop reads
    // it before or after it begins draining, it must be answered.
    try await offPool {
      for client in clients { try client.send("GET /sleep/20 HTTP/1.1\r\nHost: a\r\n\r\n") }
    }
    await server.shutdown(gracePeriod: .seconds(60))
    let statuses = try await offPool { () -> [Int] in
      try clients.map { try $0.readResponse()?.status ?? 0 }
    }
    #expect(statuses == Array(repeating: 200, count: 16))
  }
}

extension RawClient: @unchecked Sendable {}
