import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// ``HTTPServerConfiguration/busyPoll``: while deferred answers are being made on other
/// threads, the loop polls instead of sleeping, so an answer coming back needs no wake-up through the
/// pipe; it never polls with nothing outstanding, nor longer than its window after its last
/// progress.
@Suite struct HTTPServerBusyPollTests {
  /// `/later/:ms` answered from another thread after `ms`, `/later-io/:ms` the same inside an
  /// `onIOThread` body (as the vote batcher answers), `/held` once `gate` opens.
  private func startServer(
    busyPoll: Duration, gate: DispatchSemaphore = DispatchSemaphore(value: 0)
  ) throws -> HTTPServer {
    var router = testRouter()
    addLaterRoutes(to: &router)
    router.immediate("/held") { _, responder in
      Thread {
        gate.wait()
        responder.respond(.json(#"{"held":true}"#))
      }.start()
      return .deferred
    }
    let server = try startTestServer(
      { $0.busyPoll = busyPoll }, immediate: router.immediateHandler, handler: router.handler)
    return server
  }

  /// Deferred answers, handler answers, in turn on one connection.
  private func exchange(_ port: Int) async throws -> [String?] {
    try await offPool {
      let client = try RawClient(port: port)
      var texts: [String?] = []
      for n in 0..<4 {
        texts.append(try client.request("/later/\(10 + n)")?.text)
        texts.append(try client.request("/later-io/\(10 + n)")?.text)
        texts.append(try client.request("/sleep/\(5 + n)")?.text)
      }
      return texts
    }
  }

  private let expected: [String?] = (0..<4).flatMap { n in
    [#"{"later":\#(10 + n)}"#, #"{"later-io":\#(10 + n)}"#, #"{"slept":\#(5 + n)}"#]
  }

  @Test func aPollingLoopTakesAnswersWithoutAWakeUp() async throws {
    let polling = try startServer(busyPoll: .seconds(5))
    #expect(try await exchange(polling.port) == expected)
    let polled = try #require(await polling.connectionsSnapshot())
    // The 4 handler answers may wake it (a handler is not polled for); the 8 deferred ones
    // came back while it polled.
    #expect(polled.answerWakeUps <= 4, "\(polled.answerWakeUps) wake-ups for 12 answers")
    #expect(polled.outstandingAnswers == 0)
    await polling.shutdown(gracePeriod: .seconds(2))

    // The control: a loop that sleeps is woken for each answer.
    let sleeping = try startServer(busyPoll: .zero)
    #expect(try await exchange(sleeping.port) == expected)
    let slept = try #require(await sleeping.connectionsSnapshot())
    #expect(slept.answerWakeUps >= 6, "\(slept.answerWakeUps) wake-ups for 12 answers")
    #expect(slept.outstandingAnswers == 0)
    await sleeping.shutdown(gracePeriod: .seconds(2))
  }

  /// The most rounds a sleeping loop runs in the time since `start`: a tick each 250 ms (the
  /// tests' timeouts make that the tick), with room for the snapshots' own wake-ups and for a
  /// loaded machine's (a CI run saw 88 rounds in 3.7 s): 40, and 50 a second. A polling loop
  /// runs a round every few microseconds: tens of thousands in 300 ms, and still thousands on
  /// a loaded machine.
  private static func sleepingRounds(since start: ContinuousClock.Instant) -> Int {
    let elapsed = ContinuousClock.now - start
    let millis =
      Int(elapsed.components.seconds) * 1000
      + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    return 40 + millis / 20
  }

  @Test func anIdleLoopDoesNotPoll() async throws {
    let server = try startServer(busyPoll: .seconds(5))
    let port = server.port
    let text = try await offPool { try RawClient(port: port).request("/later/5")?.text }
    #expect(text == #"{"later":5}"#)
    let before = try #require(await server.connectionsSnapshot())
    let start = ContinuousClock.now
    try await Task.sleep(for: .milliseconds(300))
    let after = try #require(await server.connectionsSnapshot())
    // Asleep between its ticks (every 250 ms here) and the snapshots' wake-ups; polling, it
    // would have run a round every few microseconds.
    #expect(after.rounds - before.rounds < Self.sleepingRounds(since: start))
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func aSlowHandlerIsNotPolledFor() async throws {
    let server = try startServer(busyPoll: .seconds(5))
    let client = try RawClient(port: server.port)
    try client.send("GET /sleep/600 HTTP/1.1\r\nHost: a\r\n\r\n")
    try await Task.sleep(for: .milliseconds(50))
    let before = try #require(await server.connectionsSnapshot())
    let start = ContinuousClock.now
    try await Task.sleep(for: .milliseconds(300))
    let after = try #require(await server.connectionsSnapshot())
    #expect(after.rounds - before.rounds < Self.sleepingRounds(since: start))
    #expect(before.outstandingAnswers == 0)
    let answer = try await offPool { try client.readResponse()?.text }
    #expect(answer == #"{"slept":600}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func pollingStopsAfterItsWindowWhileAnAnswerIsLate() async throws {
    let gate = DispatchSemaphore(value: 0)
    let server = try startServer(busyPoll: .milliseconds(20), gate: gate)
    let port = server.port
    let client = try RawClient(port: port)
    try client.send("GET /held HTTP/1.1\r\nHost: a\r\n\r\n")
    // Once the loop has read it (bounded: on a loaded machine that may take a while), and its
    // 20 ms of polling are over.
    var read = try #require(await server.connectionsSnapshot())
    for _ in 0..<600 where read.outstandingAnswers == 0 {
      try await Task.sleep(for: .milliseconds(50))
      read = try #require(await server.connectionsSnapshot())
    }
    try await Task.sleep(for: .milliseconds(100))
    let before = try #require(await server.connectionsSnapshot())
    #expect(before.outstandingAnswers == 1)
    let start = ContinuousClock.now
    try await Task.sleep(for: .milliseconds(300))
    let after = try #require(await server.connectionsSnapshot())
    #expect(after.rounds - before.rounds < Self.sleepingRounds(since: start))
    // The snapshot woke the loop: an answer given before it is back asleep needs no wake-up.
    try await Task.sleep(for: .milliseconds(100))
    gate.signal()
    let answer = try await offPool { try client.readResponse()?.text }
    #expect(answer == #"{"held":true}"#)
    let done = try #require(await server.connectionsSnapshot())
    #expect(done.answerWakeUps == 1, "the loop was asleep when the late answer came")
    #expect(done.outstandingAnswers == 0)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func anAnswerForAClosedConnectionIsNoLongerAwaited() async throws {
    let gate = DispatchSemaphore(value: 0)
    let server = try startServer(busyPoll: .seconds(5), gate: gate)
    let port = server.port
    do {
      let client = try RawClient(port: port)
      try client.send("GET /held HTTP/1.1\r\nHost: a\r\n\r\n")
      try await Task.sleep(for: .milliseconds(50))
    }
    // The client is gone; its answer still comes back, and is the last one awaited.
    gate.signal()
    var outstanding = -1
    for _ in 0..<100 {
      outstanding = try #require(await server.connectionsSnapshot()).outstandingAnswers
      if outstanding == 0 { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(outstanding == 0)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}
