import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// Timeouts, limits, shutdown and start-up errors, live.
@Suite(.timeLimit(.minutes(3))) struct HTTPServerLifecycleTests {
  @Test func drippingClientGets408WhileOthersAreServed() async throws {
    // A deadline long enough that the other client is surely answered first, even on a
    // loaded machine; the dripping client sends a byte every 20 ms all along. Both clients
    // run on threads of their own, so the order of events does not depend on Swift's global
    // pool, which other suites running in parallel may keep busy for seconds.
    let server = try startTestServer { $0.headerReadTimeout = .milliseconds(1500) }
    let port = server.port
    let (other, otherFirst, drip) = try await offPool { () -> (Int, Bool, Int) in
      let dripDone = LockedArray<Int>()
      Thread {
        var status = 0
        defer { dripDone.append(status) }
        guard let client = try? RawClient(port: port) else { return }
        let request = Array(
          ("GET /hello HTTP/1.1\r\nHost: a\r\nX-Slow: " + String(repeating: "x", count: 200)).utf8)
        for byte in request {
          try? client.send([byte])
          usleep(20_000)
          // Read only once something arrived, so the client keeps dripping meanwhile.
          var probe: UInt8 = 0
          if recv(client.fd, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) != -1,
            let r = try? client.readResponse()
          {
            status = r.status
            break
          }
        }
      }.start()
      // Meanwhile another client is answered, before the dripping one is cut off.
      usleep(50_000)
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      let other = try client.readResponse()?.status ?? 0
      let otherFirst = dripDone.values.isEmpty
      // The dripping thread ends within about 5 s whatever happens.
      while dripDone.values.isEmpty { usleep(10_000) }
      return (other, otherFirst, dripDone.values[0])
    }
    #expect(other == 200)
    #expect(otherFirst)
    #expect(drip == 408)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func slowHandlerDoesNotDelayOtherConnections() async throws {
    let gate = Gate()
    let started = Gate()
    var router = testRouter()
    router.get("/gated") { _ in
      await started.open()
      await gate.wait()
      return .json("{}")
    }
    let server = try startTestServer(handler: router.handler)
    let port = server.port
    async let slow = offPool { () -> Int in
      // Its answer waits for the test's own steps, which run on the global pool: a loaded
      // machine (other suites in parallel) can hold them past the default 30 s (a CI run saw
      // it), so this client waits as long as the suite may run.
      let client = try RawClient(port: port, receiveTimeout: 150)
      try client.send("GET /gated HTTP/1.1\r\nHost: a\r\n\r\n")
      return try client.readResponse()?.status ?? 0
    }
    await started.wait()
    // While that handler is parked, other connections are served.
    let others = try await offPool { () -> [Int] in
      try (0..<5).map { _ in
        let client = try RawClient(port: port)
        try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        return try client.readResponse()?.status ?? 0
      }
    }
    #expect(others == [200, 200, 200, 200, 200])
    await gate.open()
    #expect(try await slow == 200)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func idleKeepAliveConnectionIsClosed() async throws {
    let server = try startTestServer { $0.idleTimeout = .milliseconds(200) }
    let port = server.port
    let (status, closed) = try await offPool { () -> (Int, Bool) in
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      let status = try client.readResponse()?.status ?? 0
      return (status, try client.readsEndOfStream())
    }
    #expect(status == 200)
    #expect(closed)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func silentConnectionIsClosedAtTheHeaderDeadline() async throws {
    let server = try startTestServer { $0.headerReadTimeout = .milliseconds(200) }
    let port = server.port
    let closed = try await offPool { () -> Bool in
      let client = try RawClient(port: port)
      return try client.readsEndOfStream()
    }
    #expect(closed)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func clientThatDoesNotReadIsCutAtTheWriteDeadline() async throws {
    let server = try startTestServer { $0.writeTimeout = .milliseconds(200) }
    let port = server.port
    let received = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      var size: Int32 = 4096
      setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      try client.send("GET /big/32 HTTP/1.1\r\nHost: a\r\n\r\n")
      usleep(600_000)  // not reading: the server's send buffer fills, the deadline passes
      var total = 0
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = recv(client.fd, &chunk, chunk.count, 0)
        if n <= 0 { break }
        total += n
      }
      return total
    }
    #expect(received < 32 << 20)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func slowBodyGets408() async throws {
    let server = try startTestServer { $0.bodyReadTimeout = .milliseconds(200) }
    let port = server.port
    let status = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
      return try client.readResponse()?.status ?? 0
    }
    #expect(status == 408)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func connectionsBeyondTheLimitGet503() async throws {
    let server = try startTestServer { $0.maxConnections = 2 }
    let port = server.port
    let statuses = try await offPool { () -> [Int] in
      let a = try RawClient(port: port)
      let b = try RawClient(port: port)
      for c in [a, b] { try c.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n") }
      let sa = try a.readResponse()?.status ?? 0
      let sb = try b.readResponse()?.status ?? 0
      let c = try RawClient(port: port)
      let sc = try c.readResponse()?.status ?? 0
      // The two admitted connections still work.
      try a.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      let again = try a.readResponse()?.status ?? 0
      return [sa, sb, sc, again]
    }
    #expect(statuses == [200, 200, 503, 200])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func gracefulShutdownFinishesInFlightAndRefusesNew() async throws {
    let gate = Gate()
    let started = Gate()
    var router = testRouter()
    router.get("/gated") { _ in
      await started.open()
      await gate.wait()
      return .json(#"{"done":true}"#)
    }
    let server = try startTestServer(handler: router.handler)
    let port = server.port
    // An idle keep-alive connection, to be closed by the shutdown.
    let idle = try await offPool { () -> Int32 in
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      _ = try client.readResponse()
      return dup(client.fd)
    }
    async let inFlight = offPool { () -> (Int, String?, String) in
      // Waits for the test's own steps on the global pool (see above): as long as the suite.
      let client = try RawClient(port: port, receiveTimeout: 150)
      try client.send("GET /gated HTTP/1.1\r\nHost: a\r\n\r\n")
      let r = try client.readResponse()
      return (r?.status ?? 0, r?.header("Connection"), r?.text ?? "")
    }
    await started.wait()
    // A long grace period: the test's own steps below run on the global pool, which other
    // suites may keep busy for seconds; the in-flight request must not be cut meanwhile.
    async let stopped: Void = server.shutdown(gracePeriod: .seconds(60))
    // New connections are refused while the in-flight request is still running.
    #expect(try await connectionsGetRefused(port: port))
    let idleClosed = try await offPool { () -> Bool in
      var byte: UInt8 = 0
      defer { close(idle) }
      return recv(idle, &byte, 1, 0) == 0
    }
    #expect(idleClosed)
    await gate.open()
    let (status, connection, body) = try await inFlight
    #expect(status == 200)
    #expect(connection == "close")
    #expect(body == #"{"done":true}"#)
    await stopped
  }

  @Test func shutdownClosesBusyConnectionsAfterTheGracePeriod() async throws {
    let started = Gate()
    // Held until the shutdown is over (a fixed sleep could end first on a busy machine).
    let release = Gate()
    var router = testRouter()
    router.get("/stuck") { _ in
      await started.open()
      await release.wait()
      return .json("{}")
    }
    let server = try startTestServer(handler: router.handler)
    let port = server.port
    async let cut = offPool { () -> Bool in
      let client = try RawClient(port: port)
      try client.send("GET /stuck HTTP/1.1\r\nHost: a\r\n\r\n")
      return try client.readResponse() == nil
    }
    await started.wait()
    await server.shutdown(gracePeriod: .milliseconds(100))
    #expect(try await cut)
    await release.open()
    // A second shutdown returns at once.
    await server.shutdown(gracePeriod: .seconds(1))
  }

  @Test func runUntilSignalledShutsDownOnSIGINT() async throws {
    let server = try startTestServer()
    // Ignore SIGINT first so a signal sent before the server's handler is installed is harmless.
    signal(SIGINT, SIG_IGN)
    let finished = LockedArray<Bool>()
    let run = Task {
      await server.runUntilSignalled(gracePeriod: .seconds(1))
      finished.append(true)
    }
    // Until the server has stopped, within a bound taken now: the task that installs the
    // handler can start late on a loaded machine, and a signal sent before is ignored.
    let deadline = ContinuousClock.now + .seconds(120)
    while finished.values.isEmpty && ContinuousClock.now < deadline {
      kill(getpid(), SIGINT)
      try await Task.sleep(for: .milliseconds(50))
    }
    try #require(finished.values == [true], "SIGINT did not stop the server within 120 s")
    await run.value
    let port = server.port
    let refused = try await offPool { () -> Bool in
      do {
        _ = try RawClient(port: port)
        return false
      } catch let error as RawClient.ConnectError {
        return error.errno == ECONNREFUSED
      }
    }
    #expect(refused)
  }

  @Test func releasedServerStopsListening() async throws {
    var server: HTTPServer? = try startTestServer()
    let port = server!.port
    server = nil
    #expect(try await connectionsGetRefused(port: port))
  }

  @Test func startErrors() async throws {
    let server = try startTestServer()
    #expect(throws: HTTPServerError.self) { try server.start() }
    do {
      try server.start()
    } catch {
      #expect(error.kind == .alreadyStarted)
    }

    let taken = HTTPServer(
      configuration: HTTPServerConfiguration(port: server.port), handler: { _ in HTTPResponse() })
    do {
      try taken.start()
      Issue.record("binding a taken port must fail")
    } catch {
      #expect(error.kind == .bind)
      #expect(error.errno == EADDRINUSE)
      #expect(error.syscall == "bind")
      #expect(error.description.contains("bind"))
    }

    let unresolvable = HTTPServer(
      configuration: HTTPServerConfiguration(host: "no-such-host.invalid", port: 0),
      handler: { _ in HTTPResponse() })
    do {
      try unresolvable.start()
      Issue.record("an unresolvable host must fail")
    } catch {
      #expect(error.kind == .addressResolution)
    }

    for configure: (inout HTTPServerConfiguration) -> Void in [
      { $0.port = 70000 }, { $0.maxHeaderCount = 0 }, { $0.idleTimeout = .zero },
      { $0.maxBodyBytes = -1 }, { $0.handlerThreads = 0 },
      {
        $0.bodyLimit = { _ in nil }
        $0.bodyLimitCeiling = 1000
      },
    ] {
      var configuration = HTTPServerConfiguration(port: 0)
      configure(&configuration)
      do {
        try HTTPServer(configuration: configuration, handler: { _ in HTTPResponse() }).start()
        Issue.record("an invalid configuration must fail")
      } catch {
        #expect(error.kind == .invalidConfiguration)
      }
    }
    // Shutting down a server that never started returns at once.
    await taken.shutdown(gracePeriod: .seconds(1))
    await server.shutdown(gracePeriod: .seconds(1))
  }
}

/// A one-shot gate tasks can wait on, for a bounded time: a gate that only a step which failed
/// would open (a request that never reached its handler) must not hold a test for ever.
actor Gate {
  private var isOpen = false
  private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiter = 0

  func open() {
    isOpen = true
    for waiter in waiters.values { waiter.resume() }
    waiters.removeAll()
  }

  /// Returns once the gate is open, or after `limit` with an issue recorded; says whether it
  /// opened.
  @discardableResult
  func wait(within limit: Duration = .seconds(240)) async -> Bool {
    if isOpen { return true }
    let id = nextWaiter
    nextWaiter += 1
    let timer = Task {
      try? await Task.sleep(for: limit)
      expire(id)
    }
    await withCheckedContinuation { waiters[id] = $0 }
    timer.cancel()
    if !isOpen { Issue.record("a gate stayed shut for \(limit)") }
    return isOpen
  }

  private func expire(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume()
  }
}

/// Whether connecting to `port` is refused (ECONNREFUSED) within 30 s, tried every 10 ms off
/// the global pool: a server that is stopping may itself wait seconds for a busy global pool.
func connectionsGetRefused(port: Int) async throws -> Bool {
  try await offPool { () -> Bool in
    // Against a deadline, not a count of tries: in a loaded full run the shutdown's task
    // may start late. Another failure to connect (a full table of ports) is tried again.
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
      do {
        _ = try RawClient(port: port)
      } catch let error as RawClient.ConnectError where error.errno == ECONNREFUSED {
        return true
      } catch is RawClient.ConnectError {
      }
      usleep(10_000)
    }
    return false
  }
}
