// SIGTERM (and SIGHUP) under load through the real `roadmapctl serve` (issue 7, item 10): a
// request the server already holds is answered before its connection closes, and every vote
// answered 200 is in the store afterwards.
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite(.timeLimit(.minutes(5))) struct ServeShutdownTests {
  /// What one load connection saw of one request.
  struct Outcome: Sendable {
    /// When the request's last byte was handed to the kernel (monotonic nanoseconds).
    var sentAt: UInt64
    /// The status line's code, or nil when the connection ended without one.
    var status: Int?
    /// The answer carried `Connection: close`.
    var closing: Bool
    /// The request was a vote (`/hit`), not a read.
    var isVote: Bool
  }

  /// Five rounds, each a fresh server with 64 connections, half voting (a durable write)
  /// and half reading, stopped with SIGTERM in full flow.
  @Test(arguments: 1...5)
  func sigtermUnderLoadAnswersEveryRequestTheServerHolds(round: Int) async throws {
    try await stopUnderLoad(with: SIGTERM)
  }

  /// SIGHUP (a closed terminal, logrotate's `kill -HUP`) stops the server as SIGTERM does:
  /// its default action killed it at once (exit 129) with votes committed but not answered.
  /// Two rounds (the SIGTERM test runs five).
  @Test(arguments: 1...2)
  func sighupUnderLoadStopsAsSIGTERMDoes(round: Int) async throws {
    try await stopUnderLoad(with: SIGHUP)
  }

  /// SIGUSR1 and SIGUSR2 mean nothing to `serve`: it goes on serving (their default action
  /// killed it), and SIGTERM still stops it with exit 0.
  @Test func sigusr1AndSigusr2AreIgnored() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    #expect(try await server.get("/hit/signals/feature1").status == 200)
    server.process.signal(SIGUSR1)
    server.process.signal(SIGUSR2)
    // Signals are delivered asynchronously: a few requests give a killed server time to die.
    for _ in 0..<5 {
      try await Task.sleep(for: .milliseconds(50))
      #expect(try await server.get("/get/signals/feature1").body == #"{"value":1}"#)
    }
    #expect(try await server.stop() == 0, "stderr: \(server.process.stderrText)")
  }

  /// A client sending a body slowly (its limit is 30 s) when SIGTERM comes keeps the stop
  /// waiting for the whole grace period; the log said only "Stopped." after it, so nothing
  /// told the operator why the stop took 10 s, or that a client got no answer.
  @Test func connectionsClosedAtTheEndOfTheGracePeriodAreLogged() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    let port = server.port
    let sent = Date()
    let held = try await WireClient.onThread { () -> WireConnection in
      let connection = try WireConnection(port: port)
      try connection.sendPart(
        Array(
          ("POST /api/v1/app.example/suggestions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ti").utf8))
      return connection
    }
    _ = held
    // Whether or not the server has read the part sent, the shutdown waits for the rest.
    #expect(try await server.get("/healthz").status == 200)
    #expect(try await server.stop() == 0)
    let stderr = server.process.stderrText
    // The body has 30 s once its head is in (then 408 and close): on a machine so loaded that
    // the stop's grace period ended later than that, the server had closed it already.
    guard Date().timeIntervalSince(sent) < 28 else {
      #expect(stderr.hasSuffix("Stopped.\n"), "\(stderr)")
      return
    }
    #expect(
      stderr.contains(
        "Closed 1 connection still open after 10 s: a request not yet received whole, a vote "
          + "not yet answered, or an answer not yet read by its client.\nStopped."),
      "\(stderr)")
  }

  /// Starts a server with 64 connections, half voting and half reading, and stops it with
  /// `signal` in full flow: it must exit 0, answer every request it holds, and keep every
  /// vote it answered.
  private func stopUnderLoad(with signal: Int32) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url, ["--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    #expect(try await server.get("/hit/shutdown/feature1").status == 200)
    let load = LoadGenerator(port: server.port, connections: 64)
    let running = Task { try await load.run() }
    // Let the load reach a steady state: many answered, many in flight.
    let deadline = ContinuousClock.now + .seconds(120)
    while load.answered < 400 {
      try #require(ContinuousClock.now < deadline, "only \(load.answered) answers in 120 s")
      try await Task.sleep(for: .milliseconds(20))
    }
    // Hold votes in the server when the signal comes: another process takes SQLite's write lock,
    // so the writer waits (within its 5 s busy timeout) and every voting connection's request
    // stays unanswered until the lock is let go, after SIGTERM. Without it, a loaded machine
    // can find every connection between requests at the signal, with nothing in flight.
    // That process also sends the signal and lets go 150 ms later, so the hold does not hang on
    // this test's threads, which a busy suite can keep waiting for seconds.
    let locker = try ChildProcess.start(
      "/usr/bin/env",
      [
        "python3", "-c",
        """
        import os, signal, sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute('BEGIN IMMEDIATE')
        time.sleep(0.1)
        print(time.monotonic_ns(), flush=True)
        os.kill(int(sys.argv[2]), int(sys.argv[3]))
        time.sleep(0.15)
        db.rollback()
        """,
        directory.url.appendingPathComponent("votes.sqlite3").path,
        String(server.process.processIdentifier), String(signal),
      ])
    defer { locker.kill() }
    // The monotonic clock's reading just before the signal (CLOCK_MONOTONIC, as this test's).
    let signalled = try await locker.readLine(timeout: .seconds(60))
    let killedAt = try #require(signalled.flatMap { UInt64($0) }, "\(locker.stderrText)")
    #expect(try await locker.waitForExit(timeout: .seconds(60)) == 0)
    let status = try await server.process.waitForExit(timeout: .seconds(60))
    let outcomes = try await running.value
    #expect(status == 0, "stderr: \(server.process.stderrText)")

    // Every request whose last byte reached the kernel before SIGTERM was sent sat in the
    // server's socket before the server knew of the shutdown, so it must be answered (the
    // issue saw such requests cut up to 73 ms before the signal). A request sent after the
    // signal can cross the close of an idle keep-alive connection on the wire, as with any
    // HTTP/1.1 server (docs/http-server.md), so it is not held to that.
    let firstClose = load.firstCloseSeen
    #expect(killedAt < firstClose)
    let held = outcomes.filter { $0.sentAt < killedAt }
    let unanswered = held.filter { $0.status == nil }
    #expect(held.count >= 400)
    #expect(
      unanswered.isEmpty,
      "\(unanswered.count) of \(held.count) requests sent before SIGTERM got no status line"
    )
    #expect(
      outcomes.compactMap(\.status).allSatisfy { $0 == 200 },
      "statuses: \(Dictionary(grouping: outcomes.compactMap(\.status)) { $0 }.mapValues(\.count)); stderr: \(server.process.stderrText.suffix(2000))"
    )
    // Votes were held when the shutdown began: they are answered, with close.
    #expect(outcomes.contains { $0.isVote && $0.closing && $0.status == 200 })

    // Nothing answered is lost: the count is the first vote plus every vote answered 200.
    let votes = 1 + outcomes.filter { $0.isVote && $0.status == 200 }.count
    let restarted = try await ServeProcess.start(dataDirectory: directory.url)
    defer { restarted.process.kill() }
    let answer = try await restarted.get("/get/shutdown/feature1")
    #expect(answer.body == #"{"value":\#(votes)}"#)
    #expect(try await restarted.stop() == 0)
  }
}

/// `connections` keep-alive connections, each on its own thread, voting or reading in a loop
/// until the server stops listening; each records what became of every request it sent.
final class LoadGenerator: @unchecked Sendable {
  let port: Int
  let connections: Int
  private let lock = NSLock()
  private var answeredCount = 0
  private var firstClose = UInt64.max

  init(port: Int, connections: Int) {
    self.port = port
    self.connections = connections
  }

  /// Requests answered so far (any thread).
  var answered: Int {
    lock.lock()
    defer { lock.unlock() }
    return answeredCount
  }

  /// When a connection first saw the server closing (`UInt64.max`: never).
  var firstCloseSeen: UInt64 {
    lock.lock()
    defer { lock.unlock() }
    return firstClose
  }

  private func sawClose() {
    let now = LoadGenerator.monotonicNow()
    lock.lock()
    firstClose = min(firstClose, now)
    lock.unlock()
  }

  static func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
  }

  /// Runs every connection until the server refuses new ones; returns all outcomes.
  func run() async throws -> [ServeShutdownTests.Outcome] {
    try await WireClient.concurrently(connections) { i in try self.worker(votes: i % 2 == 0) }
      .flatMap { $0 }
  }

  private func worker(votes: Bool) throws -> [ServeShutdownTests.Outcome] {
    var outcomes: [ServeShutdownTests.Outcome] = []
    let target = votes ? "/hit/shutdown/feature1" : "/get/shutdown/feature1"
    let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    while true {
      guard let fd = openConnection() else { return outcomes }
      defer { close(fd) }
      var buffer: [UInt8] = []
      while true {
        // A connection the server closed while idle is not reused: nothing was sent on it.
        if serverClosed(fd, buffered: buffer) {
          sawClose()
          break
        }
        guard sendAll(fd, request) else {
          sawClose()
          break
        }
        var outcome = ServeShutdownTests.Outcome(
          sentAt: LoadGenerator.monotonicNow(), status: nil, closing: false, isVote: votes)
        if let (status, closing) = readAnswer(fd, &buffer) {
          outcome.status = status
          outcome.closing = closing
          lock.lock()
          answeredCount += 1
          lock.unlock()
        }
        outcomes.append(outcome)
        if outcome.status == nil || outcome.closing {
          sawClose()
          break
        }
      }
    }
  }

  /// A new connection, or nil once the server refuses connections.
  private func openConnection() -> Int32? {
    for _ in 0..<100 {
      #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
      #endif
      guard fd >= 0 else { return nil }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if result == 0 {
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
      }
      let code = errno
      close(fd)
      if code == ECONNREFUSED { return nil }
      usleep(10_000)
    }
    return nil
  }

  /// Whether the server has closed `fd` (end of stream or reset waiting, nothing buffered).
  private func serverClosed(_ fd: Int32, buffered: [UInt8]) -> Bool {
    guard buffered.isEmpty else { return false }
    var probe: UInt8 = 0
    let n = recv(fd, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    if n == 0 { return true }
    return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK
  }

  private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }

  /// Reads one answer's head and body: its status and whether it closes the connection, or
  /// nil when the connection ended first.
  private func readAnswer(_ fd: Int32, _ buffer: inout [UInt8]) -> (Int, Bool)? {
    let separator: [UInt8] = [13, 10, 13, 10]
    var chunk = [UInt8](repeating: 0, count: 4096)
    func fill() -> Bool {
      while true {
        let n = recv(fd, &chunk, chunk.count, 0)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[..<n])
        return true
      }
    }
    var end: Int?
    while end == nil {
      if buffer.count >= 4 {
        end = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
      }
      if end == nil, !fill() { return nil }
    }
    let head = String(decoding: buffer[..<end!], as: UTF8.self).lowercased()
    buffer.removeFirst(end! + 4)
    let lines = head.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    var length = 0
    var closing = false
    for line in lines.dropFirst() {
      if line.hasPrefix("content-length:") {
        length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
      }
      if line.hasPrefix("connection:") && line.contains("close") { closing = true }
    }
    while buffer.count < length {
      guard fill() else { return nil }
    }
    buffer.removeFirst(length)
    return (status, closing)
  }
}
