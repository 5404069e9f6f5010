import Foundation
import Testing

@testable import HTTPServer

/// The I/O thread's immediate handler (``HTTPImmediateHandler``): what it answers goes out at
/// once and in order with everything else on the connection; what it passes reaches the
/// ordinary handler unchanged.
@Suite struct HTTPServerImmediateTests {
  /// `/get/:ns/:key` answered immediately unless the key is `slow`; the ordinary route
  /// answers differently, so every answer says who gave it.
  private func startServer(
    accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil, gate: DispatchSemaphore? = nil,
    arrived: DispatchSemaphore? = nil
  ) throws -> (HTTPServer, ImmediateCount) {
    var router = testRouter()
    let count = ImmediateCount()
    router.immediate("/get/:ns/:key") { request, _ in
      guard request.parameter("key") != "slow" else { return nil }
      count.add()
      return .response(.json(#"{"immediate":"\#(request.parameter("key")!)"}"#))
    }
    addLaterRoutes(to: &router)
    // Says it `arrived`, is held until the test opens `gate`, then answered inside an
    // `onIOThread` body.
    router.immediate("/held-io") { _, responder in
      arrived?.signal()
      Thread {
        gate?.wait()
        responder.onIOThread { responder.respond(.json(#"{"held-io":true}"#)) }
      }.start()
      return .deferred
    }
    let server = try startTestServer(
      { $0.accessLog = accessLog }, immediate: router.immediateHandler, handler: router.handler)
    return (server, count)
  }

  @Test func immediateAnswersAndPassedRequestsInterleaveInOrder() async throws {
    let (server, count) = try startServer()
    let port = server.port
    let bodies = try await offPool { () -> [String] in
      let client = try RawClient(port: port)
      try client.send(
        "GET /get/ns/one HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /sleep/100 HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /later/150 HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /get/ns/two HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /get/ns/slow HTTP/1.1\r\nHost: a\r\n\r\n"
          + "POST /get/ns/three HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
          + "GET /get/ns/four HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      var bodies: [String] = []
      while let response = try client.readResponse() { bodies.append(response.text) }
      return bodies
    }
    #expect(
      bodies == [
        #"{"immediate":"one"}"#, #"{"slept":100}"#, #"{"later":150}"#, #"{"immediate":"two"}"#,
        #"{"ns":"ns","key":"slow"}"#, #"{"error":"method not allowed"}"#,
        #"{"immediate":"four"}"#,
      ])
    #expect(count.value == 3)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aHeadIsAnsweredImmediatelyWithoutABody() async throws {
    let (server, _) = try startServer()
    let port = server.port
    let (head, length) = try await offPool { () -> (String, String?) in
      let client = try RawClient(port: port)
      try client.send("HEAD /get/ns/one HTTP/1.1\r\nHost: a\r\n\r\n")
      let response = try #require(try client.readResponse(headRequest: true))
      return (response.text, response.header("Content-Length"))
    }
    #expect(head.isEmpty)
    #expect(length == String(#"{"immediate":"one"}"#.utf8.count))
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func manyPipelinedImmediateRequestsInOneWrite() async throws {
    let (server, count) = try startServer()
    let port = server.port
    let answered = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      let one = "GET /get/ns/k HTTP/1.1\r\nHost: a\r\n\r\n"
      try client.send(
        String(repeating: one, count: 1500)
          + "GET /get/ns/last HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      var answered = 0
      while let response = try client.readResponse() {
        guard response.status == 200 else { break }
        answered += 1
      }
      return answered
    }
    #expect(answered == 1501)
    #expect(count.value == 1501)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func immediateAnswersAreLoggedLikeTheOthers() async throws {
    let entries = LockedArray<AccessLogEntry>()
    let (server, _) = try startServer(accessLog: { entries.append($0) })
    let port = server.port
    _ = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      try client.send("GET /get/ns/one?x=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
      return try client.readResponse()?.status ?? 0
    }
    await server.shutdown(gracePeriod: .seconds(2))
    let entry = try #require(entries.values.first)
    #expect(entry.method == "GET" && entry.target == "/get/ns/one?x=1" && entry.status == 200)
  }

  /// A graceful shutdown waits for a deferred answer, as for a handler's.
  @Test func shutdownWaitsForADeferredAnswer() async throws {
    let (server, _) = try startServer()
    let port = server.port
    // The request is on the wire (and the server has taken it) before the shutdown begins.
    let client = try await offPool { () -> RawClient in
      let client = try RawClient(port: port)
      try client.send("GET /later/400 HTTP/1.1\r\nHost: a\r\n\r\n")
      return client
    }
    try await Task.sleep(for: .milliseconds(150))
    async let body = offPool { try client.readResponse()?.text ?? "no answer" }
    await server.shutdown(gracePeriod: .seconds(10))
    #expect(try await body == #"{"later":400}"#)
  }

  /// An answer given inside an ``HTTPResponder/onIOThread(_:)`` body goes straight to its
  /// connection: in order behind the requests pipelined with it, logged, kept alive.
  @Test func answersGivenOnTheIOThreadGoOutInOrderAndAreLogged() async throws {
    let entries = LockedArray<AccessLogEntry>()
    let (server, _) = try startServer(accessLog: { entries.append($0) })
    let port = server.port
    let answers = try await offPool { () -> [(String, String?)] in
      let client = try RawClient(port: port)
      try client.send(
        "GET /later-io/30 HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /later-io/0 HTTP/1.1\r\nHost: a\r\n\r\n"
          + "GET /get/ns/one HTTP/1.1\r\nHost: a\r\n\r\n")
      var answers: [(String, String?)] = []
      for _ in 0..<3 {
        guard let response = try client.readResponse() else { break }
        answers.append((response.text, response.header("Connection")))
      }
      return answers
    }
    #expect(answers.map(\.0) == [#"{"later-io":30}"#, #"{"later-io":0}"#, #"{"immediate":"one"}"#])
    #expect(answers.allSatisfy { $0.1 == nil })
    await server.shutdown(gracePeriod: .seconds(2))
    #expect(
      entries.values.map(\.target).sorted() == ["/get/ns/one", "/later-io/0", "/later-io/30"])
    #expect(entries.values.allSatisfy { $0.status == 200 })
  }

  /// Given inside an ``HTTPResponder/onIOThread(_:)`` body while the server shuts down, the
  /// last answer still carries `Connection: close`, as one given from any other thread does.
  @Test func anAnswerOnTheIOThreadDuringShutdownIsTheLast() async throws {
    let gate = DispatchSemaphore(value: 0)
    let arrived = DispatchSemaphore(value: 0)
    let (server, _) = try startServer(gate: gate, arrived: arrived)
    let port = server.port
    let client = try await offPool { () -> RawClient in
      let client = try RawClient(port: port)
      try client.send("GET /held-io HTTP/1.1\r\nHost: a\r\n\r\n")
      return client
    }
    // The request is in the handler's hands before the shutdown begins (a set wait was not
    // always enough in a loaded full run: the connection was closed unanswered).
    let inHand = try await offPool { arrived.wait(timeout: .now() + 120) == .success }
    try #require(inHand, "the request never reached its handler")
    // A long grace: the answer comes as soon as the gate opens; a loaded run may take its time.
    async let shutdown: Void = server.shutdown(gracePeriod: .seconds(120))
    // The shutdown has begun once the listening socket is closed; only then is the answer
    // given.
    let closed = (try? await connectionsGetRefused(port: port)) ?? false
    gate.signal()
    #expect(closed, "the listening socket was still open after 120 s of shutdown")
    let (body, connection) = try await offPool { () -> (String, String?) in
      let response = try client.readResponse()
      return (response?.text ?? "no answer", response?.header("Connection"))
    }
    await shutdown
    #expect(body == #"{"held-io":true}"#)
    #expect(connection == "close")
  }

  @Test func routerOffersOnlyGetAndHeadToImmediateRoutes() {
    var router = Router()
    router.immediate("/get/:key") { request, _ in
      .response(.json(#"{"k":"\#(request.parameter("key")!)"}"#))
    }
    #expect(router.immediateHandler != nil)
    #expect(Router().immediateHandler == nil)
    let ignore = HTTPResponder { _ in }
    func status(_ method: HTTPMethod, _ target: String) -> Int? {
      let request = HTTPRequest(method: method, target: target, headers: HTTPHeaders())
      switch router.respondImmediately(to: request, responder: ignore) {
      case .response(let response)?: return response.status
      case .deferred?: return -1
      case nil: return nil
      }
    }
    #expect(status(.get, "/get/abc") == 200)
    #expect(status(.head, "/get/abc") == 200)
    #expect(status(.post, "/get/abc") == nil)
    #expect(status(.get, "/get/abc/def") == nil)
    #expect(status(.get, "/other") == nil)
  }
}

/// How many requests the immediate handler answered.
private final class ImmediateCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
