import Foundation
import Testing

@testable import HTTPServer

/// ``HTTPResponder/afterRound(_:)`` and ``HTTPResponder/onIOThread(_:)``: an immediate handler
/// gathers the requests of one round of the I/O thread, another thread answers the whole
/// round at once, and the I/O thread sends every answer, in order on each connection.
@Suite struct HTTPServerRoundTests {
  static let connections = 16
  static let requestsEach = 20

  @Test func roundsAreGatheredAndAnsweredTogetherInOrder() async throws {
    let gatherer = RoundGatherer(holdUntil: Self.connections)
    var router = testRouter()
    router.immediate("/gather/:conn/:n") { request, responder in
      gatherer.add(request, responder)
      return .deferred
    }
    let server = HTTPServer(
      configuration: HTTPServerConfiguration(
        host: "127.0.0.1", port: 0, headerReadTimeout: .seconds(10),
        bodyReadTimeout: .seconds(10), idleTimeout: .seconds(10), writeTimeout: .seconds(10)),
      immediate: router.immediateHandler, handler: router.handler)
    try server.start()
    let port = server.port
    let answers = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
      for conn in 0..<Self.connections {
        group.addTask {
          try await offPool {
            let client = try RawClient(port: port)
            var text = ""
            for n in 0..<Self.requestsEach {
              text += "GET /gather/\(conn)/\(n) HTTP/1.1\r\nHost: a\r\n\r\n"
            }
            try client.send(text)
            var bodies: [String] = []
            for _ in 0..<Self.requestsEach {
              guard let response = try client.readResponse() else { break }
              bodies.append(response.text)
            }
            return (conn, bodies)
          }
        }
      }
      var all: [Int: [String]] = [:]
      for try await (conn, bodies) in group { all[conn] = bodies }
      return all
    }
    for conn in 0..<Self.connections {
      // Each answer names its own request: nothing lost, swapped or reordered.
      #expect(
        answers[conn] == (0..<Self.requestsEach).map { #"{"answer":"/gather/\#(conn)/\#($0)"}"# })
    }
    // The first request of every connection was held until all had come, then answered in
    // one go: from then on each round gathers one request of every connection.
    let sizes = gatherer.roundSizes
    #expect(sizes.reduce(0, +) == Self.connections * Self.requestsEach)
    #expect(sizes.suffix(Self.requestsEach - 1).allSatisfy { $0 == Self.connections })
    await server.shutdown(gracePeriod: .seconds(2))
  }

  /// A responder made by hand (as a test or another server would) runs both at once.
  @Test func aHandMadeResponderRunsBothAtOnce() {
    let seen = Seen()
    let responder = HTTPResponder { _ in seen.note("respond") }
    responder.afterRound { seen.note("round") }
    responder.onIOThread {
      seen.note("io")
      responder.respond(.json("{}"))
    }
    #expect(seen.names == ["round", "io", "respond"])
  }
}

/// Gathers the requests of each round; a thread of its own answers each round with one
/// ``HTTPResponder/onIOThread(_:)``, after holding everything until `holdUntil` requests came.
private final class RoundGatherer: @unchecked Sendable {
  private let condition = NSCondition()
  private var current: [(HTTPRequest, HTTPResponder)] = []
  private var rounds: [[(HTTPRequest, HTTPResponder)]] = []
  private var sizes: [Int] = []
  private var received = 0
  private let holdUntil: Int

  init(holdUntil: Int) {
    self.holdUntil = holdUntil
    Thread { [self] in answerRounds() }.start()
  }

  var roundSizes: [Int] { condition.withLock { sizes } }

  /// On the I/O thread, from the immediate handler.
  func add(_ request: HTTPRequest, _ responder: HTTPResponder) {
    condition.lock()
    current.append((request, responder))
    let first = current.count == 1
    condition.unlock()
    if first { responder.afterRound { [self] in endRound() } }
  }

  private func endRound() {
    condition.lock()
    rounds.append(current)
    sizes.append(current.count)
    received += current.count
    current = []
    condition.signal()
    condition.unlock()
  }

  private func answerRounds() {
    var held = true
    while true {
      condition.lock()
      while rounds.isEmpty || (held && received < holdUntil) { condition.wait() }
      // While held, every round so far goes back in one answer.
      let batch = held ? [rounds.flatMap { $0 }] : rounds
      rounds = []
      condition.unlock()
      held = false
      for round in batch {
        round[0].1.onIOThread {
          for (request, responder) in round {
            responder.respond(.json(#"{"answer":"\#(request.path)"}"#))
          }
        }
      }
    }
  }
}

private final class Seen: @unchecked Sendable {
  private let lock = NSLock()
  private var list: [String] = []
  func note(_ name: String) { lock.withLock { list.append(name) } }
  var names: [String] { lock.withLock { list } }
}
