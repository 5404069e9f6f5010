import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// The answers of a round go out together in one io_uring submission (`SendBatch`), or one
/// `send` each with `batchesSends` off; both ways every client gets exactly its own answers,
/// in order, whole.
@Suite struct HTTPServerSendBatchTests {
  static func start(batching: Bool) throws -> HTTPServer {
    try startTestServer { $0.batchesSends = batching }
  }

  #if os(Linux)
    @Test func onLinuxARoundsAnswersGoOutInOneSubmission() async throws {
      let server = try Self.start(batching: true)
      let port = server.port
      try await offPool {
        let clients = try (0..<16).map { _ in try RawClient(port: port) }
        for round in 0..<5 {
          for (n, client) in clients.enumerated() {
            try client.send("GET /get/r\(round)/k\(n) HTTP/1.1\r\nHost: a\r\n\r\n")
          }
          for (n, client) in clients.enumerated() {
            #expect(try client.readResponse()?.text == #"{"ns":"r\#(round)","key":"k\#(n)"}"#)
          }
        }
      }
      let snapshot = try #require(await server.connectionsSnapshot())
      #expect(snapshot.sentBatches > 0, "io_uring is there on this kernel: answers were batched")
      #expect(snapshot.sentBatches <= 80)
      await server.shutdown(gracePeriod: .seconds(2))

      let plain = try Self.start(batching: false)
      _ = try await offPool { try RawClient(port: plain.port).request("/hello") }
      #expect(try #require(await plain.connectionsSnapshot()).sentBatches == 0)
      await plain.shutdown(gracePeriod: .seconds(2))
    }
  #endif

  @Test(arguments: [true, false])
  func manyClientsAtOnceEachGetTheirOwnAnswer(batching: Bool) async throws {
    let server = try Self.start(batching: batching)
    let port = server.port
    try await offPool {
      let clients = try (0..<48).map { _ in try RawClient(port: port) }
      for (n, client) in clients.enumerated() {
        try client.send("GET /get/ns/key\(n) HTTP/1.1\r\nHost: a\r\n\r\n")
      }
      for (n, client) in clients.enumerated().reversed() {
        let response = try client.readResponse()
        #expect(response?.status == 200)
        #expect(response?.text == #"{"ns":"ns","key":"key\#(n)"}"#)
      }
    }
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test(arguments: [true, false])
  func pipelinedAnswersComeInOrder(batching: Bool) async throws {
    let server = try Self.start(batching: batching)
    let port = server.port
    try await offPool {
      let client = try RawClient(port: port)
      let requests = (0..<40).map { n in
        n % 7 == 3
          ? "GET /sleep/5 HTTP/1.1\r\nHost: a\r\n\r\n"
          : "GET /get/p/k\(n) HTTP/1.1\r\nHost: a\r\n\r\n"
      }
      try client.send(requests.joined())
      for n in 0..<40 {
        let text = try client.readResponse()?.text
        #expect(text == (n % 7 == 3 ? #"{"slept":5}"# : #"{"ns":"p","key":"k\#(n)"}"#))
      }
    }
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test(arguments: [true, false])
  func aLargeAnswerToASlowReaderArrivesWhole(batching: Bool) async throws {
    let server = try Self.start(batching: batching)
    let port = server.port
    let (status, count, intact, next) = try await offPool { () -> (Int, Int, Bool, String?) in
      let client = try RawClient(port: port)
      // 16 MiB cannot fit the sockets' buffers: the batch takes what fits (or nothing), the
      // rest waits for room while the client does not read.
      try client.send(
        "GET /big/16 HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      Thread.sleep(forTimeInterval: 0.2)
      let big = try client.readResponse()
      let hello = try client.readResponse()
      return (
        big?.status ?? 0, big?.body.count ?? 0, big?.body.allSatisfy { $0 == 0x61 } ?? false,
        hello?.text
      )
    }
    #expect(status == 200)
    #expect(count == 16 << 20)
    #expect(intact)
    #expect(next == #"{"hello":"world"}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test(arguments: [true, false])
  func aClientGoneBeforeItsAnswerCostsTheOthersNothing(batching: Bool) async throws {
    let server = try Self.start(batching: batching)
    let port = server.port
    try await offPool {
      // These leave while their answers are being made; the others wait for theirs.
      for _ in 0..<8 {
        let leaving = try RawClient(port: port)
        try leaving.send("GET /sleep/20 HTTP/1.1\r\nHost: a\r\n\r\n")
      }
      let staying = try (0..<8).map { _ in try RawClient(port: port) }
      for (n, client) in staying.enumerated() {
        try client.send(
          "GET /sleep/20 HTTP/1.1\r\nHost: a\r\n\r\nGET /get/s/k\(n) HTTP/1.1\r\nHost: a\r\n\r\n")
      }
      for (n, client) in staying.enumerated() {
        #expect(try client.readResponse()?.text == #"{"slept":20}"#)
        #expect(try client.readResponse()?.text == #"{"ns":"s","key":"k\#(n)"}"#)
      }
    }
    // And the server goes on answering.
    let text = try await offPool { try RawClient(port: port).request("/hello")?.text }
    #expect(text == #"{"hello":"world"}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}

#if os(Linux)
  /// `SendBatch` itself over socket pairs: what a socket did not take comes back as the
  /// connection's rest, and a connection no longer live is sent nothing.
  @Suite struct SendBatchTests {
    /// A connection on one end of a socket pair whose other end is returned (read it).
    static func pair(sendBuffer: Int32? = nil) throws -> (Connection, Int32) {
      var fds: [Int32] = [0, 0]
      #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
      if var size = sendBuffer {
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      }
      _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
      let connection = Connection(
        fd: fds[0], id: 0, peer: "test", limitKey: nil, limits: HTTPParserLimits(),
        timeouts: ConnectionStateMachine.Timeouts(header: 1, body: 1, idle: 1, write: 1))
      return (connection, fds[1])
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
      var out: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        if n <= 0 { return out }
        out.append(contentsOf: chunk[..<n])
      }
    }

    @Test func eachSocketGetsItsBytesAndWhatDidNotFitComesBack() throws {
      let batch = try #require(SendBatch.make(), "io_uring on this kernel")
      let (small, smallPeer) = try Self.pair()
      let (full, fullPeer) = try Self.pair(sendBuffer: 4096)
      defer { for fd in [small.fd, smallPeer, full.fd, fullPeer] { close(fd) } }
      small.output = Array("answer one".utf8)
      let big = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 % 253) }
      full.output = big
      #expect(batch.takes(full))
      batch.add(small)
      batch.add(full)
      #expect(small.outputDrained && full.outputDrained, "the batch holds their bytes now")
      var rests: [ObjectIdentifier: [UInt8]] = [:]
      batch.send(
        isLive: { _ in true },
        then: { connection, rest in rests[ObjectIdentifier(connection)] = Array(rest) })
      #expect(batch.isEmpty)
      #expect(Self.readAll(smallPeer) == Array("answer one".utf8))
      #expect(rests[ObjectIdentifier(small)] == [])
      let received = Self.readAll(fullPeer)
      let rest = try #require(rests[ObjectIdentifier(full)])
      #expect(!rest.isEmpty, "a 4 KiB send buffer cannot take 60,000 bytes at once")
      #expect(received + rest == big)
      #expect(batch.submissions == 1)
    }

    @Test func aFullSocketTakesNothingAndTheSubmissionDoesNotWait() throws {
      let batch = try #require(SendBatch.make(), "io_uring on this kernel")
      let (connection, peer) = try Self.pair(sendBuffer: 4096)
      defer { for fd in [connection.fd, peer] { close(fd) } }
      // Fill the socket until it takes no more.
      let filler = [UInt8](repeating: 7, count: 65536)
      while filler.withUnsafeBytes({ Glibc.send(connection.fd, $0.baseAddress, $0.count, 0) }) > 0 {
      }
      #expect(errno == EAGAIN)
      connection.output = Array("waiting".utf8)
      batch.add(connection)
      var rest: [UInt8]?
      batch.send(isLive: { _ in true }, then: { _, left in rest = Array(left) })
      #expect(rest == Array("waiting".utf8), "all of it comes back, as after send's EAGAIN")
    }

    @Test func aFailedSubmissionSendsNothingAndTheBatchStepsAside() throws {
      let batch = try #require(SendBatch.make(), "io_uring on this kernel")
      let (connection, peer) = try Self.pair()
      defer { for fd in [connection.fd, peer] { close(fd) } }
      #expect(batch.isUsable)
      batch.breakRingForTesting()
      connection.output = Array("later".utf8)
      batch.add(connection)
      var rest: [UInt8]?
      batch.send(isLive: { _ in true }, then: { _, left in rest = Array(left) })
      // Nothing went out through the ring: the caller's own send takes it all.
      #expect(rest == Array("later".utf8))
      #expect(Self.readAll(peer).isEmpty)
      #expect(!batch.isUsable, "a ring that failed is not used again")
    }

    @Test func aConnectionNoLongerLiveIsSentNothing() throws {
      let batch = try #require(SendBatch.make(), "io_uring on this kernel")
      let (gone, gonePeer) = try Self.pair()
      let (live, livePeer) = try Self.pair()
      defer { for fd in [gone.fd, gonePeer, live.fd, livePeer] { close(fd) } }
      gone.output = Array("stale".utf8)
      live.output = Array("fresh".utf8)
      batch.add(gone)
      batch.add(live)
      var rests: [ObjectIdentifier: [UInt8]] = [:]
      batch.send(
        isLive: { $0 !== gone },
        then: { connection, rest in rests[ObjectIdentifier(connection)] = Array(rest) })
      #expect(Self.readAll(gonePeer).isEmpty)
      #expect(rests[ObjectIdentifier(gone)] == Array("stale".utf8))
      #expect(Self.readAll(livePeer) == Array("fresh".utf8))
      #expect(rests[ObjectIdentifier(live)] == [])
    }

    @Test func aLargeAnswerIsNotBatched() throws {
      let batch = try #require(SendBatch.make(), "io_uring on this kernel")
      let (connection, peer) = try Self.pair()
      defer { for fd in [connection.fd, peer] { close(fd) } }
      connection.output = [UInt8](repeating: 1, count: SendBatch.maximumSegmentBytes + 1)
      #expect(!batch.takes(connection))
      connection.outputOffset = 1
      #expect(batch.takes(connection))
    }
  }
#endif
