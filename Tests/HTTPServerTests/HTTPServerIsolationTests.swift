import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server answers while Swift's global concurrency pool is saturated.
@Suite struct HTTPServerIsolationTests {
  /// Fills every thread of the global pool with synchronous blocking work, then sends a
  /// request from the test's own (pool) thread. Handlers run on the server's own executor,
  /// so the answer arrives within the client's 5 s receive timeout although no pool thread
  /// is free; with handlers on the global pool the request times out. The handler awaits a
  /// yield, a structured child task and an actor, so resumptions are covered too.
  @Test func requestIsAnsweredWhileTheGlobalPoolIsBlocked() async throws {
    let counter = Counter()
    var router = testRouter()
    router.get("/busy") { _ in
      await Task.yield()
      async let child = counter.increment()
      let value = await child
      return .json(#"{"count":\#(value)}"#)
    }
    let server = try startTestServer(handler: router.handler)
    let port = server.port
    let width = ProcessInfo.processInfo.activeProcessorCount
    let blocker = PoolBlocker()
    for _ in 0..<(2 * width) {
      Task.detached { blocker.block() }
    }
    // This test body holds one pool thread; wait until the blockers hold the others.
    blocker.waitUntilStarted(width - 1)
    let response = Result { () throws -> RawClient.Response? in
      let client = try RawClient(port: port)
      try client.send("GET /busy HTTP/1.1\r\nHost: a\r\n\r\n")
      return try client.readResponse()
    }
    blocker.release()
    let answered = try #require(try response.get())
    #expect(answered.status == 200)
    #expect(String(decoding: answered.body, as: UTF8.self) == #"{"count":1}"#)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}

/// An actor the test handler awaits.
private actor Counter {
  private var value = 0

  func increment() -> Int {
    value += 1
    return value
  }
}

/// Synchronous work that holds a thread until released (or for at most 20 s).
private final class PoolBlocker: @unchecked Sendable {
  private let lock = NSLock()
  private var started = 0
  private var released = false

  /// Blocks the calling thread with short synchronous sleeps until ``release()``.
  func block() {
    lock.withLock { started += 1 }
    for _ in 0..<20_000 {
      if lock.withLock({ released }) { return }
      usleep(1000)
    }
  }

  /// Waits synchronously (at most 10 s) until `count` blockers hold a thread.
  func waitUntilStarted(_ count: Int) {
    for _ in 0..<10_000 {
      if lock.withLock({ started >= count }) { return }
      usleep(1000)
    }
  }

  /// Lets every blocker return.
  func release() {
    lock.withLock { released = true }
  }
}
