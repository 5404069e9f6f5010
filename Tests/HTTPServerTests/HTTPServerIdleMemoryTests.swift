import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// An idle connection holds no buffer: what keeps 10,000 idle connections within a few MB
/// (docs/performance.md). The live tests look at the server through the I/O thread's own
/// snapshot of its connections (``HTTPServer/connectionsSnapshot()``); the others drive the
/// pieces without sockets.
@Suite(.timeLimit(.minutes(3))) struct HTTPServerIdleMemoryTests {
  /// A test server whose connections stay open however slowly a loaded machine runs the
  /// test's steps: no header or idle deadline closes them before they are looked at.
  private func startServer(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }
  ) throws -> HTTPServer {
    try startTestServer {
      $0.headerReadTimeout = .seconds(600)
      $0.idleTimeout = .seconds(600)
      configure(&$0)
    }
  }

  /// Takes snapshots until `done` holds (a safety deadline only: nothing here is timed).
  private func snapshot(
    of server: HTTPServer, until done: (ConnectionsSnapshot) -> Bool
  ) async throws -> ConnectionsSnapshot {
    let deadline = ContinuousClock.now + .seconds(60)
    while true {
      let snapshot = try #require(await server.connectionsSnapshot())
      if done(snapshot) || ContinuousClock.now > deadline { return snapshot }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  @Test func answeredAndSilentConnectionsHoldNoBuffer() async throws {
    let server = try startServer()
    let port = server.port
    let answered = try RawClient(port: port)
    let status = try await offPool { () -> Int in
      try answered.send("GET /get/abc/feature1 HTTP/1.1\r\nHost: a\r\n\r\n")
      return try answered.readResponse()?.status ?? 0
    }
    #expect(status == 200)
    var silent: RawClient? = try RawClient(port: port)
    _ = try await snapshot(of: server) { $0.connections.count == 2 }
    var partial: RawClient? = try RawClient(port: port)
    try partial?.send("GET /hello HTTP/1.1\r\nHo")
    let seen = try await snapshot(of: server) {
      $0.connections.count == 3 && $0.connections.contains { $0.state == .reading }
    }
    let byAge = seen.connections.sorted { $0.id < $1.id }
    try #require(byAge.count == 3)
    #expect(byAge[0].state == .idle(fresh: false))
    #expect(byAge[0].heldBytes == 0)
    #expect(byAge[1].state == .idle(fresh: true))
    #expect(byAge[1].heldBytes == 0)
    // The half-read head is held, so a buffer that stayed would show.
    #expect(byAge[2].state == .reading)
    #expect(byAge[2].heldBytes > 0)
    // The answer's buffer went back to the loop, to be lent to the next write.
    #expect(seen.sharedOutputBytes > 0)
    #expect(seen.sharedOutputBytes <= Connection.maxSharedOutputBytes)
    // Closed, so the shutdown need not wait for the half-sent request.
    withExtendedLifetime(silent) {}
    silent = nil
    partial = nil
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func pipelinedAndLargeRequestsAreAnsweredAndLeaveNothingHeld() async throws {
    let server = try startServer()
    let port = server.port
    let client = try RawClient(port: port)
    let upload = [UInt8](repeating: 0x62, count: 300_000)
    let answers = try await offPool { () -> [RawClient.Response] in
      var bytes = Array("GET /get/one/first HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
      bytes += Array(
        "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(upload.count)\r\n\r\n".utf8)
      bytes += upload
      bytes += Array("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
      try client.send(bytes)
      var answers: [RawClient.Response] = []
      for _ in 0..<3 { answers.append(try #require(try client.readResponse())) }
      try client.send("GET /big/2 HTTP/1.1\r\nHost: a\r\n\r\n")
      answers.append(try #require(try client.readResponse()))
      // A small answer last: a buffer the connection kept would show in the snapshot.
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      answers.append(try #require(try client.readResponse()))
      return answers
    }
    #expect(answers.map(\.status) == [200, 200, 200, 200, 200])
    #expect(answers[0].text == #"{"ns":"one","key":"first"}"#)
    #expect(answers[1].body == upload)
    #expect(answers[2].text == #"{"hello":"world"}"#)
    #expect(answers[3].body.count == 2 << 20)
    #expect(answers[4].text == #"{"hello":"world"}"#)
    let seen = try await snapshot(of: server) {
      $0.connections.count == 1 && $0.connections[0].state == .idle(fresh: false)
    }
    #expect(seen.connections.map(\.heldBytes) == [0])
    // The 2 MiB answer's buffer was freed, not kept for the next write.
    #expect(seen.sharedOutputBytes <= Connection.maxSharedOutputBytes)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aBlockedWriteKeepsItsBufferUntilItDrains() async throws {
    // 16 MiB is more than the socket buffers on both sides hold, so the write blocks until
    // the client reads; a generous write deadline, so a busy machine does not cut it.
    let server = try startServer { $0.writeTimeout = .seconds(600) }
    let port = server.port
    let slow = try RawClient(port: port)
    var size: Int32 = 65536
    setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    try slow.send("GET /big/16 HTTP/1.1\r\nHost: a\r\n\r\n")
    let writing = try await snapshot(of: server) {
      $0.connections.first?.state == .writing(closeAfter: false)
    }
    try #require(writing.connections.count == 1)
    #expect(writing.connections[0].heldBytes >= 1 << 20)
    // Meanwhile another connection writes from the loop's buffer and is answered.
    let other = try await offPool { () -> String in
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      return try client.readResponse()?.text ?? ""
    }
    #expect(other == #"{"hello":"world"}"#)
    let body = try await offPool { try slow.readResponse()?.body.count ?? 0 }
    #expect(body == 16 << 20)
    let seen = try await snapshot(of: server) {
      $0.connections.count == 1 && $0.connections[0].state == .idle(fresh: false)
    }
    #expect(seen.connections.map(\.heldBytes) == [0])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aStoppedServerHasNoConnectionsToShow() async throws {
    let server = try startTestServer()
    let unstarted = HTTPServer(configuration: .init(port: 0), handler: testRouter().handler)
    #expect(await unstarted.connectionsSnapshot() == nil)
    await server.shutdown(gracePeriod: .seconds(2))
    let after = try #require(await server.connectionsSnapshot())
    #expect(after.connections.isEmpty)
  }

  // MARK: - Without sockets

  private func connection() -> Connection {
    Connection(
      fd: 3, id: 1, peer: "127.0.0.1", limitKey: nil, limits: HTTPParserLimits(),
      timeouts: .init(header: 10, body: 10, idle: 10, write: 10))
  }

  @Test func theSharedOutputBufferIsLentAndGivenBack() {
    var scratch: [UInt8] = []
    scratch.reserveCapacity(512)
    let capacity = scratch.capacity
    let first = connection()
    first.borrowOutput(&scratch)
    #expect(scratch.capacity == 0)
    #expect(first.output.capacity == capacity)
    first.output.append(contentsOf: Array("HTTP/1.1 200 OK\r\n".utf8))
    // Not written yet: the connection keeps it.
    first.returnOutput(&scratch)
    #expect(first.heldBytes == capacity)
    #expect(scratch.capacity == 0)
    // A second connection borrows while the first still holds it: it gets none to grow.
    let second = connection()
    second.borrowOutput(&scratch)
    #expect(second.output.capacity == 0)
    first.outputOffset = first.output.count
    first.returnOutput(&scratch)
    #expect(first.heldBytes == 0)
    #expect(first.outputOffset == 0)
    #expect(scratch.capacity == capacity)
    #expect(scratch.isEmpty)
    // The loop has one again, so a second buffer is freed, not kept.
    second.output = [UInt8](repeating: 1, count: 100)
    second.outputOffset = 100
    second.returnOutput(&scratch)
    #expect(second.heldBytes == 0)
    #expect(scratch.capacity == capacity)
  }

  @Test func aLargeOutputBufferIsFreedNotShared() {
    var scratch: [UInt8] = []
    let big = connection()
    big.borrowOutput(&scratch)
    big.output = [UInt8](repeating: 0, count: Connection.maxSharedOutputBytes + 1)
    big.outputOffset = big.output.count
    big.returnOutput(&scratch)
    #expect(big.heldBytes == 0)
    #expect(scratch.capacity == 0)
  }

  @Test func theParserLetsGoOfARequestOnceItIsParsed() {
    var parser = HTTPRequestParser()
    #expect(parser.heldBytes == 0)
    let head = Array("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel".utf8)
    let first = parser.consume(head)
    #expect(first.event == .headComplete)
    #expect(parser.heldBytes > 0)
    #expect(parser.consume(Array(head[first.consumed...])).event == .needMore)
    #expect(parser.heldBytes > 0)
    let rest = parser.consume(Array("lo".utf8))
    guard case .request(let request) = rest.event else {
      Issue.record("expected a request, got \(rest.event)")
      return
    }
    #expect(request.body == Array("hello".utf8))
    #expect(parser.heldBytes == 0)
    #expect(parser.isAtRequestBoundary)
  }

  @Test func limitsAndTimeoutsAreSharedAndCopiesStayIndependent() {
    let limits = HTTPParserLimits(maxBodyBytes: 10)
    var changed = limits
    changed.maxBodyBytes = 20
    changed.maxHeaderCount = 3
    #expect(limits.maxBodyBytes == 10)
    #expect(limits.maxHeaderCount == 100)
    #expect(changed.maxBodyBytes == 20)
    #expect(changed.maxHeaderCount == 3)
    #expect(changed.bodyLimit(for: HTTPRequestHead(method: .get, target: "/")) == 20)
    // One reference each, whatever the number of limits.
    #expect(MemoryLayout<HTTPParserLimits>.size == MemoryLayout<Int>.size)
    #expect(MemoryLayout<ConnectionStateMachine.Timeouts>.size == MemoryLayout<Int>.size)
    let a = ConnectionStateMachine.Timeouts(header: 1, body: 2, idle: 3, write: 4)
    #expect(a == .init(header: 1, body: 2, idle: 3, write: 4, linger: a.linger))
    #expect(a != .init(header: 1, body: 2, idle: 3, write: 5))
    #expect(a.linger == ConnectionStateMachine.lingerNanos)
  }
}
