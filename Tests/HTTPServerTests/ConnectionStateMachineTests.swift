import Testing

@testable import HTTPServer

/// The connection lifecycle as tables of events and the actions they produce, driven by a
/// test clock: no sockets, no sleeps.
///
/// Times are plain numbers on the test clock; the timeouts are header 10, body 30, idle 60,
/// write 20, linger 2.
@Suite struct ConnectionStateMachineTests {
  /// An event at a time on the test clock.
  enum Step {
    case bytes(String)
    case eof
    case respond(Int, headers: HTTPHeaders = HTTPHeaders())
    case drained
    case blocked
    case tick
    case shutdown
  }

  /// Runs `steps` (each at its time) and returns every step's actions, rendered.
  static func run(_ steps: [(UInt64, Step)], limits: HTTPParserLimits = HTTPParserLimits())
    -> [[String]]
  {
    var machine = ConnectionStateMachine(
      limits: limits,
      timeouts: .init(header: 10, body: 30, idle: 60, write: 20, linger: 2))
    var first: [ConnectionStateMachine.Action] = []
    machine.start(now: 0, into: &first)
    var rendered = [first.map(render)]
    for (now, step) in steps {
      let actions: [ConnectionStateMachine.Action]
      switch step {
      case .bytes(let text):
        let bytes = Array(text.utf8)
        actions = bytes.withUnsafeBufferPointer { machine.handle(.bytesRead($0), now: now) }
      case .eof: actions = machine.handle(.endOfInput, now: now)
      case .respond(let status, let headers):
        actions = machine.handle(
          .responseReady(HTTPResponse(status: status, headers: headers)), now: now)
      case .drained: actions = machine.handle(.writeDrained, now: now)
      case .blocked: actions = machine.handle(.writeBlocked, now: now)
      case .tick: actions = machine.handle(.tick, now: now)
      case .shutdown: actions = machine.handle(.shutdownBegan, now: now)
      }
      rendered.append(actions.map(render))
    }
    return rendered
  }

  static func render(_ action: ConnectionStateMachine.Action) -> String {
    switch action {
    case .dispatch(let request): return "dispatch \(request.method) \(request.target)"
    case .send(let reply):
      return "send \(reply.response.status) \(reply.keepAlive ? "keep-alive" : "close")"
        + (reply.headOnly ? " head" : "") + (reply.http10 ? " 1.0" : "")
    case .sendError(let status, _, _, let keepAlive):
      return "error \(status) \(keepAlive ? "keep-alive" : "close")"
    case .sendContinue: return "100 continue"
    case .watch(let read, let write):
      return "watch " + (read ? "r" : "") + (write ? "w" : "") + (read || write ? "" : "-")
    case .armTimer(let timer, let at): return "timer \(timer) @\(at)"
    case .cancelTimer: return "no timer"
    case .lingerClose: return "linger"
    case .closeUnlessReadable: return "close unless readable"
    case .close: return "close"
    case .reset: return "reset"
    }
  }

  static let get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
  static let getB = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"

  @Test func keepAliveRequestThenIdleTimeout() {
    let table: [(UInt64, Step, [String])] = [
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 keep-alive"]),
      (3, .drained, ["timer idle @63"]),
      (62, .tick, []),
      (63, .tick, ["close"]),
      (64, .bytes(Self.get), []),
    ]
    check(table)
  }

  @Test func aSecondRequestOnAKeptConnectionGetsAFreshHeaderTimer() {
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 keep-alive"]),
      (3, .drained, ["timer idle @63"]),
      (40, .bytes("GET /b HTTP/1.1\r\n"), ["timer header @50"]),
      (49, .tick, []),
      (50, .tick, ["no timer", "error 408 close"]),
      (51, .drained, ["linger", "timer linger @53"]),
      (52, .bytes("Host: x\r\n"), []),
      (53, .tick, ["close"]),
    ])
  }

  @Test func pipelinedRequestsAreAnsweredOneAtATimeInOrder() {
    check([
      (1, .bytes(Self.get + Self.getB), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 keep-alive"]),
      (3, .drained, ["timer header @13", "no timer", "dispatch GET /b"]),
      (4, .respond(404), ["send 404 keep-alive"]),
      (5, .drained, ["timer idle @65"]),
    ])
  }

  @Test func bytesWhileBusyAreBufferedUpToTheLimitThenReadingStops() {
    let chunk = String(repeating: "x", count: ConnectionStateMachine.maxPendingBytes / 2)
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .bytes("GET /b HTTP/1.1\r\nX: " + chunk), []),
      (3, .bytes(chunk), ["watch -"]),
      (4, .respond(200), ["send 200 keep-alive"]),
      // The buffered head is over the header limit: refused, then closed after a linger.
      (5, .drained, ["timer header @15", "no timer", "error 431 close", "watch r"]),
      (6, .drained, ["linger", "timer linger @8"]),
    ])
  }

  @Test func expectContinueGetsAnInterimResponseThenTheBody() {
    check([
      (
        1,
        .bytes("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"),
        ["timer body @31", "100 continue"]
      ),
      (2, .blocked, ["watch rw", "timer write @22"]),
      (3, .drained, ["watch r", "timer body @33"]),
      (4, .bytes("abc"), ["no timer", "dispatch POST /e"]),
      (5, .respond(200), ["send 200 keep-alive"]),
      (6, .drained, ["timer idle @66"]),
    ])
  }

  // MARK: - Body limits decided per request (limits: `decidedLimits`, default 10 bytes,
  // 20 for `/big` with `X-Key: k`)

  @Test func expectContinueOverTheDecidedLimitGets413InsteadOf100() {
    check(
      [
        (
          1,
          .bytes(
            "POST /big HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n"),
          ["no timer", "error 413 close"]
        ),
        (2, .drained, ["linger", "timer linger @4"]),
        (3, .bytes("01234567890"), []),
        (4, .tick, ["close"]),
      ], limits: decidedLimits)
  }

  @Test func expectContinueWithinAGrantedLimitGets100ThenTheBody() {
    check(
      [
        (
          1,
          .bytes(
            "POST /big HTTP/1.1\r\nHost: x\r\nX-Key: k\r\nExpect: 100-continue\r\n"
              + "Content-Length: 20\r\n\r\n"),
          ["timer body @31", "100 continue"]
        ),
        (2, .drained, []),
        (3, .bytes("0123456789abcdefghij"), ["no timer", "dispatch POST /big"]),
        (4, .respond(200), ["send 200 keep-alive"]),
        (5, .drained, ["timer idle @65"]),
      ], limits: decidedLimits)
  }

  @Test func aGrantedLimitOverTheDefaultDoesNotCarryToTheNextRequest() {
    check(
      [
        (
          1,
          .bytes(
            "POST /big HTTP/1.1\r\nHost: x\r\nX-Key: k\r\nContent-Length: 15\r\n\r\n"
              + "0123456789abcde"),
          ["timer body @31", "no timer", "dispatch POST /big"]
        ),
        (2, .respond(200), ["send 200 keep-alive"]),
        (3, .drained, ["timer idle @63"]),
        (
          4, .bytes("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n"),
          ["timer header @14", "no timer", "error 413 close"]
        ),
      ], limits: decidedLimits)
  }

  @Test func chunkedExpectContinueGets100ThenA413WhenTheChunksPassTheLimit() {
    check(
      [
        (
          1,
          .bytes(
            "POST /big HTTP/1.1\r\nHost: x\r\nX-Key: k\r\nExpect: 100-continue\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n"),
          ["timer body @31", "100 continue"]
        ),
        (2, .drained, []),
        (3, .bytes("F\r\n0123456789abcde\r\n"), []),
        (4, .bytes("6\r\n"), ["no timer", "error 413 close"]),
      ], limits: decidedLimits)
  }

  @Test func anOtherExpectationGets417AndCloses() {
    check([
      (
        1, .bytes("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: magic\r\n\r\n"),
        ["timer body @31", "no timer", "error 417 close"]
      ),
      (2, .drained, ["linger", "timer linger @4"]),
      (3, .eof, ["close"]),
    ])
  }

  /// On a request without a body an unknown expectation has nothing to wait for: it is
  /// served (RFC 9110 §10.1.1 lets a server ignore it; docs/http-server.md says so).
  @Test func anOtherExpectationWithoutABodyIsServed() {
    check([
      (
        1, .bytes("GET /a HTTP/1.1\r\nHost: x\r\nExpect: magic\r\n\r\n"),
        ["no timer", "dispatch GET /a"]
      )
    ])
  }

  @Test func slowBodyGets408() {
    check([
      (1, .bytes("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na"), ["timer body @31"]),
      (30, .tick, []),
      (31, .tick, ["no timer", "error 408 close"]),
    ])
  }

  @Test func aFreshConnectionsHeaderTimerRunsFromTheAccept() {
    // A client that connects and never sends is closed silently; one that sends part of a
    // head gets 408 at the same deadline.
    #expect(Self.run([(10, .tick)]) == [["timer header @10"], ["close"]])
    check([
      (9, .bytes("GET / HTTP/1.1\r\n"), []),
      (10, .tick, ["no timer", "error 408 close"]),
    ])
  }

  @Test func aClientThatDoesNotReadIsResetAtTheWriteDeadline() {
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 keep-alive"]),
      (2, .blocked, ["watch rw", "timer write @22"]),
      (10, .blocked, []),
      (22, .tick, ["reset"]),
    ])
  }

  @Test func aHandlersConnectionCloseClosesAfterTheResponse() {
    // A 429 with Connection: close (the rate limiter's answer) ends the connection.
    check([
      (1, .bytes(Self.get + Self.getB), ["no timer", "dispatch GET /a"]),
      (2, .respond(429, headers: ["Connection": "close"]), ["send 429 close"]),
      (3, .drained, ["linger", "timer linger @5"]),
      (4, .bytes("more"), []),
      (5, .tick, ["close"]),
    ])
  }

  @Test func keepAliveFollowsTheRequest() {
    check([
      (1, .bytes("GET /a HTTP/1.0\r\n\r\n"), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 close 1.0"]),
    ])
    check([
      (
        1, .bytes("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"),
        ["no timer", "dispatch GET /a"]
      ),
      (2, .respond(200), ["send 200 keep-alive 1.0"]),
    ])
    check([
      (
        1, .bytes("HEAD /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ["no timer", "dispatch HEAD /a"]
      ),
      (2, .respond(200), ["send 200 close head"]),
    ])
  }

  @Test func unknownMethodsGet501AndTheConnectionStays() {
    check([
      (1, .bytes("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n"), ["no timer", "error 501 keep-alive"]),
      (2, .drained, ["timer idle @62"]),
    ])
  }

  @Test func malformedRequestsAreRefusedAndClosed() {
    check([
      (
        1, .bytes("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
        ["no timer", "error 400 close"]
      ),
      (2, .drained, ["linger", "timer linger @4"]),
    ])
  }

  @Test func thePeerClosing() {
    // Idle or half-way through a request: nothing can be answered.
    check([(1, .eof, ["close"])])
    check([(1, .bytes("GET / HT"), []), (2, .eof, ["close"])])
    // With a request in flight: the answer is still written, then the connection closes.
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .eof, ["watch -"]),
      (3, .respond(200), ["send 200 keep-alive"]),
      (4, .drained, ["close"]),
    ])
    // After a close-delimited answer the peer already closed: no linger.
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .eof, ["watch -"]),
      (3, .respond(200, headers: ["Connection": "close"]), ["send 200 close"]),
      (4, .drained, ["close"]),
    ])
  }

  // MARK: - Graceful shutdown (issue 7, item 10)

  @Test func shutdownClosesAnIdleConnectionAtOnce() {
    check([(1, .shutdown, ["close unless readable"])])
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 keep-alive"]),
      (3, .drained, ["timer idle @63"]),
      (4, .shutdown, ["close unless readable"]),
    ])
  }

  @Test func aRequestFoundInTheSocketOfAnIdleConnectionAtShutdownIsAnswered() {
    // The loop looked once more before closing and found a request: it is answered.
    check([
      (1, .shutdown, ["close unless readable"]),
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 close"]),
      (3, .drained, ["linger", "timer linger @5"]),
    ])
  }

  @Test func aRequestReadBeforeShutdownGetsItsFullResponseWithClose() {
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .shutdown, []),
      (3, .respond(200), ["send 200 close"]),
      (4, .drained, ["linger", "timer linger @6"]),
    ])
  }

  @Test func aRequestHalfReadAtShutdownIsStillReadAndAnswered() {
    check([
      (1, .bytes("POST /e HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na"), ["timer body @31"]),
      (2, .shutdown, []),
      (3, .bytes("bc"), ["no timer", "dispatch POST /e"]),
      (4, .respond(201), ["send 201 close"]),
    ])
  }

  @Test func pipelinedRequestsHeldAtShutdownAreAllAnsweredTheLastWithClose() {
    check([
      (1, .bytes(Self.get + Self.getB), ["no timer", "dispatch GET /a"]),
      (2, .shutdown, []),
      (3, .respond(200), ["send 200 keep-alive"]),
      (4, .drained, ["timer header @14", "no timer", "dispatch GET /b"]),
      (5, .respond(200), ["send 200 close"]),
      (6, .drained, ["linger", "timer linger @8"]),
    ])
  }

  @Test func aKeptAliveAnswerWrittenDuringShutdownThenCloses() {
    check([
      (1, .bytes(Self.get), ["no timer", "dispatch GET /a"]),
      (2, .respond(200), ["send 200 keep-alive"]),
      (2, .blocked, ["watch rw", "timer write @22"]),
      (3, .shutdown, []),
      (4, .drained, ["watch r", "no timer", "close unless readable"]),
    ])
  }

  @Test func anUnknownMethodDuringShutdownIsAnsweredWithClose() {
    check([(1, .shutdown, ["close unless readable"])])
    check([
      (1, .bytes("BREW / HTTP/1.1\r\nHost: x\r\n"), []),
      (2, .shutdown, []),
      (3, .bytes("\r\n"), ["no timer", "error 501 close"]),
    ])
  }

  /// Runs the table and compares each step's actions.
  private func check(
    _ table: [(UInt64, Step, [String])], limits: HTTPParserLimits = HTTPParserLimits(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let results = Self.run(table.map { ($0.0, $0.1) }, limits: limits)
    for (index, row) in table.enumerated() {
      #expect(
        results[index + 1] == row.2, "step \(index + 1) at \(row.0)",
        sourceLocation: sourceLocation)
    }
  }
}
