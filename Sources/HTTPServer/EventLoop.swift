import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's single I/O thread: accepts, reads, parses, writes and times out every
/// connection; hands each complete request to a `Task` running the handler on the server's
/// own ``HandlerExecutor`` threads and takes the response back through a locked queue and a
/// pipe wake-up.
///
/// Everything but `complete(_:)`, `requestShutdown(_:)` and `requestStop()` is confined to the
/// loop thread, which is why the class is `@unchecked Sendable`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class EventLoop: @unchecked Sendable {
  /// A handler's answer on its way back to the loop.
  struct Completion {
    var fd: Int32
    var id: UInt64
    var response: HTTPResponse
  }

  private let configuration: HTTPServerConfiguration
  private let handler: HTTPHandler
  private let limits: HTTPParserLimits
  private let poller: Poller
  private var listenFD: Int32
  private let wakeReadFD: Int32
  private let wakeWriteFD: Int32
  /// The ``HandlerExecutor`` (behind a protocol so the class needs no availability
  /// annotation); nil only on Darwin before macOS 15, where handlers use the global pool.
  private let handlerExecutor: (any HandlerThreadControl)?

  // Loop-thread state.
  private var connections: [Connection?] = []
  private var openCount = 0
  private var nextID: UInt64 = 1
  private var encoder = ResponseEncoder()
  private let readBuffer: UnsafeMutableRawBufferPointer
  private var now: UInt64 = 0
  private var nextScan: UInt64 = 0
  private let tickMillis: Int32
  private var acceptPausedUntil: UInt64 = 0
  private var draining = false
  private var drainDeadline: UInt64 = 0

  // Shared state, under `lock`.
  private let lock = NSLock()
  private var completions: [Completion] = []
  /// The loop's half of a double buffer with `completions` (loop thread only).
  private var spareCompletions: [Completion] = []
  private var wakePending = false
  /// The loop is in (or about to enter) `epoll_wait`; only then does a completion need the pipe.
  private var sleeping = false
  private var shutdownRequest: UInt64?
  private var stopped = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Most bytes buffered for a connection while its previous request is being answered.
  static let maxPendingBytes = 64 * 1024
  /// How long a closing connection is drained so the client reads our last response.
  static let lingerNanos: UInt64 = 2_000_000_000
  /// Most bytes drained from a closing connection.
  static let maxLingerBytes = 1 << 20
  /// Whether the server knows `method`; others get 501 before reaching the handler.
  static func isKnownMethod(_ method: String) -> Bool {
    switch method {
    case "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH": return true
    default: return false
    }
  }

  init(
    listenFD: Int32, configuration: HTTPServerConfiguration, handler: @escaping HTTPHandler
  ) throws(SystemCallError) {
    self.listenFD = listenFD
    self.configuration = configuration
    self.handler = handler
    self.limits = configuration.parserLimits
    self.poller = try Poller()
    var fds: [Int32] = [0, 0]
    _ = try SystemCall.retrying("pipe") { pipe(&fds) }
    wakeReadFD = fds[0]
    wakeWriteFD = fds[1]
    try SystemCall.makeNonBlocking(wakeReadFD)
    try SystemCall.makeNonBlocking(wakeWriteFD)
    try poller.add(wakeReadFD, read: true, write: false)
    try poller.add(listenFD, read: true, write: false)
    readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    let shortest =
      [
        configuration.headerReadTimeout, configuration.bodyReadTimeout, configuration.idleTimeout,
        configuration.writeTimeout,
      ].map(EventLoop.nanos).min() ?? 1_000_000_000
    tickMillis = Int32(max(5, min(250, shortest / 4_000_000)))
    if #available(macOS 15, *) {
      handlerExecutor = HandlerExecutor(
        threads: configuration.handlerThreads, name: "HTTPServer handler")
    } else {
      handlerExecutor = nil
    }
  }

  deinit {
    readBuffer.deallocate()
  }

  static func nanos(_ d: Duration) -> UInt64 {
    let c = d.components
    if c.seconds < 0 { return 0 }
    return UInt64(c.seconds) &* 1_000_000_000 &+ UInt64(max(0, c.attoseconds) / 1_000_000_000)
  }

  static func monotonicNow() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
  }

  // MARK: - Cross-thread entry points

  /// Hands a handler's response back to the loop (any thread).
  func complete(_ completion: Completion) {
    lock.lock()
    if stopped {
      lock.unlock()
      return
    }
    completions.append(completion)
    if sleeping && !wakePending {
      wakePending = true
      wakeUpLocked()
    }
    lock.unlock()
  }

  /// Asks the loop to shut down gracefully within `grace`; returns once it has stopped.
  func requestShutdown(_ grace: Duration) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.lock()
      if stopped {
        lock.unlock()
        continuation.resume()
        return
      }
      waiters.append(continuation)
      if shutdownRequest == nil { shutdownRequest = EventLoop.nanos(grace) }
      wakeUpLocked()
      lock.unlock()
    }
  }

  /// Asks the loop to close everything now, without waiting (for `HTTPServer`'s deinit).
  func requestStop() {
    lock.lock()
    if !stopped {
      if shutdownRequest == nil { shutdownRequest = 0 }
      wakeUpLocked()
    }
    lock.unlock()
  }

  /// Writes the wake-up byte. Called with `lock` held and `stopped` false, so the pipe cannot
  /// have been closed (and its descriptor number reused) in between.
  private func wakeUpLocked() {
    var byte: UInt8 = 1
    _ = write(wakeWriteFD, &byte, 1)
  }

  // MARK: - The loop

  /// Runs until shut down; call on the dedicated I/O thread.
  func run() {
    let executor = handlerExecutor
    executor?.start()
    var events: [Poller.Event] = []
    events.reserveCapacity(256)
    now = EventLoop.monotonicNow()
    nextScan = now + UInt64(tickMillis) * 1_000_000
    while true {
      do {
        // Sleep only if no completion is waiting; completions arriving while the loop is
        // awake are picked up without a wake-up write.
        lock.lock()
        let idle = completions.isEmpty && (shutdownRequest == nil || draining)
        sleeping = idle
        lock.unlock()
        try poller.wait(timeout: idle ? tickMillis : 0, into: &events)
        lock.lock()
        sleeping = false
        lock.unlock()
      } catch {
        // Only EBADF/EINVAL-class failures reach here: nothing to recover.
        break
      }
      now = EventLoop.monotonicNow()
      executor?.beginBatch()
      for event in events {
        if event.fd == listenFD {
          acceptConnections()
        } else if event.fd == wakeReadFD {
          drainWakePipe()
        } else if Int(event.fd) < connections.count, let connection = connections[Int(event.fd)] {
          if event.failed {
            close(connection)
            continue
          }
          if event.writable { flush(connection) }
          if event.readable, connections[Int(event.fd)] === connection {
            readable(connection)
          }
        }
      }
      takeCompletions()
      executor?.endBatch()
      if now >= nextScan {
        nextScan = now + UInt64(tickMillis) * 1_000_000
        scanDeadlines()
        if acceptPausedUntil != 0 && now >= acceptPausedUntil && listenFD >= 0 {
          acceptPausedUntil = 0
          try? poller.add(listenFD, read: true, write: false)
        }
      }
      if draining && (openCount == 0 || now >= drainDeadline) { break }
    }
    finish()
  }

  private func drainWakePipe() {
    while read(wakeReadFD, readBuffer.baseAddress, readBuffer.count) > 0 {}
  }

  private func takeCompletions() {
    lock.lock()
    swap(&completions, &spareCompletions)
    wakePending = false
    let grace = shutdownRequest
    lock.unlock()
    if let grace, !draining { beginDraining(grace) }
    for completion in spareCompletions { deliver(completion) }
    spareCompletions.removeAll(keepingCapacity: true)
  }

  private func finish() {
    for case let connection? in connections { close(connection) }
    if listenFD >= 0 {
      SystemCall.close(listenFD)
      listenFD = -1
    }
    lock.lock()
    stopped = true
    completions.removeAll()
    let toResume = waiters
    waiters.removeAll()
    lock.unlock()
    SystemCall.close(wakeReadFD)
    SystemCall.close(wakeWriteFD)
    handlerExecutor?.shutdownWhenIdle()
    for waiter in toResume { waiter.resume() }
  }

  // MARK: - Shutdown

  private func beginDraining(_ grace: UInt64) {
    draining = true
    drainDeadline = now &+ grace
    if listenFD >= 0 {
      poller.remove(listenFD)
      SystemCall.close(listenFD)
      listenFD = -1
    }
    for case let connection? in connections where connection.isIdle {
      close(connection)
    }
  }

  // MARK: - Accepting

  private func acceptConnections() {
    for _ in 0..<64 {
      var storage = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let fd = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          SystemCall.accept(listenFD, $0, &length)
        }
      }
      if fd < 0 {
        let code = errno
        switch code {
        case EINTR, ECONNABORTED, EPROTO: continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors: stop accepting briefly instead of spinning on the listener.
          poller.remove(listenFD)
          acceptPausedUntil = now + 100_000_000
          return
        default: return
        }
      }
      var one: Int32 = 1
      _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      if openCount >= configuration.maxConnections {
        refuseOverLimit(fd, peer: SystemCall.addressText(storage))
        continue
      }
      let connection = Connection(
        fd: fd, id: nextID, peer: SystemCall.addressText(storage), limits: limits)
      nextID += 1
      do {
        try poller.add(fd, read: true, write: false)
      } catch {
        SystemCall.close(fd)
        continue
      }
      if Int(fd) >= connections.count {
        connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count))
      }
      connections[Int(fd)] = connection
      openCount += 1
      setDeadline(connection, .header)
    }
  }

  /// Answers 503 on a connection beyond the limit and closes it, without ever tracking it.
  private func refuseOverLimit(_ fd: Int32, peer: String) {
    var out: [UInt8] = []
    _ = encoder.encode(
      ResponseEncoder.errorResponse(status: 503, reason: "too many connections"),
      headOnly: false, keepAlive: false, http10: false, into: &out)
    _ = out.withUnsafeBytes { try? SystemCall.send(fd, $0) }
    // Read what already arrived so close() sends FIN, not RST, and the client sees the 503.
    _ = try? SystemCall.recv(fd, readBuffer)
    shutdown(fd, Int32(SHUT_WR))
    SystemCall.close(fd)
    configuration.accessLog?(
      AccessLogEntry(method: "-", target: "-", status: 503, bytes: 0, latency: .zero, peer: peer))
  }

  // MARK: - Reading

  /// Reads what is available into `readBuffer`: the byte count (0 at end of stream), or nil
  /// when nothing is there yet or the read failed (the connection is then closed).
  private func receive(_ connection: Connection) -> Int? {
    do {
      return try SystemCall.recv(connection.fd, readBuffer)
    } catch {
      close(connection)
      return nil
    }
  }

  private func readable(_ connection: Connection) {
    if connection.deadline == .linger {
      lingerRead(connection)
      return
    }
    if connection.inFlight || !connection.outputDrained {
      // Busy: buffer a bounded amount (pipelining), then stop reading until answered.
      if connection.pending.count >= EventLoop.maxPendingBytes {
        watch(connection, read: false, write: connection.watchingWrite)
        return
      }
      guard let n = receive(connection) else { return }
      if n == 0 {
        connection.readClosed = true
        watch(connection, read: false, write: connection.watchingWrite)
        return
      }
      connection.pending.append(
        contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
      return
    }
    guard let n = receive(connection) else { return }
    if n == 0 {
      // The client closed: nothing in progress to answer.
      close(connection)
      return
    }
    if connection.deadline == .idle { setDeadline(connection, .header) }
    let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])
    bytes.withMemoryRebound(to: UInt8.self) { feed(connection, $0) }
  }

  /// Parses `bytes`; stops at the first complete request, keeping the rest in `pending`.
  private func feed(_ connection: Connection, _ bytes: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < bytes.count {
      let (event, used) = connection.parser.consume(UnsafeBufferPointer(rebasing: bytes[offset...]))
      offset += used
      switch event {
      case .needMore:
        continue
      case .headComplete:
        setDeadline(connection, .body)
        if !handleExpectation(connection) { return }
      case .request(let request):
        if offset < bytes.count {
          connection.pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
        }
        dispatch(connection, request)
        return
      case .failure(let failure):
        respondAndClose(connection, status: failure.status, reason: failure.reason)
        return
      }
    }
  }

  /// Answers `Expect`: 100 Continue for `100-continue`, 417 for anything else.
  private func handleExpectation(_ connection: Connection) -> Bool {
    guard let expect = connection.parser.headerValue("expect") else { return true }
    if expect.trimmingSpacesAndTabs().caseInsensitiveEquals("100-continue") {
      if connection.parser.currentMinorVersion >= 1 {
        connection.output.append(contentsOf: ResponseEncoder.continueResponse)
        flush(connection)
      }
      return connections[Int(connection.fd)] === connection
    }
    respondAndClose(connection, status: 417, reason: "unsupported expectation")
    return false
  }

  /// Continues with buffered bytes after a response was written.
  private func resume(_ connection: Connection) {
    if !connection.pending.isEmpty {
      let bytes = connection.pending
      connection.pending = []
      setDeadline(connection, .header)
      bytes.withUnsafeBufferPointer { feed(connection, $0) }
      guard connections[Int(connection.fd)] === connection else { return }
    }
    if connection.inFlight || !connection.outputDrained { return }
    if connection.readClosed {
      // The client sent all it will; a partial request can never complete.
      close(connection)
      return
    }
    if !connection.watchingRead || connection.watchingWrite {
      watch(connection, read: true, write: false)
    }
    if connection.parser.isAtRequestBoundary && connection.pending.isEmpty {
      if draining {
        close(connection)
      } else {
        setDeadline(connection, .idle)
      }
    }
  }

  // MARK: - Handlers

  private func dispatch(_ connection: Connection, _ parsed: ParsedRequest) {
    connection.inFlight = true
    connection.inFlightIsHead = parsed.method == "HEAD"
    connection.inFlightKeepAlive = parsed.keepAlive && !draining
    connection.inFlightHTTP10 = parsed.version.minor == 0
    setDeadline(connection, .none)
    let fd = connection.fd
    let id = connection.id
    if !EventLoop.isKnownMethod(parsed.method) {
      let response = ResponseEncoder.errorResponse(
        status: 501, reason: "method \(parsed.method) is not implemented")
      log(parsed, response, peer: connection.peer, since: nil)
      // Through the queue, not directly: answering in place would recurse once per
      // pipelined request.
      complete(Completion(fd: fd, id: id, response: response))
      return
    }
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: parsed.method), target: parsed.target,
      version: parsed.version, headers: parsed.headers, body: parsed.body,
      remoteAddress: connection.peer)
    let handler = self.handler
    let operation: @Sendable () async -> Void
    if let accessLog = configuration.accessLog {
      let start = ContinuousClock.now
      let peer = connection.peer
      let method = parsed.method
      let target = parsed.target
      operation = {
        let response = await handler(request)
        accessLog(
          AccessLogEntry(
            method: method, target: target, status: response.status,
            bytes: response.body.count, latency: ContinuousClock.now - start, peer: peer))
        self.complete(Completion(fd: fd, id: id, response: response))
      }
    } else {
      operation = {
        let response = await handler(request)
        self.complete(Completion(fd: fd, id: id, response: response))
      }
    }
    startHandlerTask(operation)
  }

  /// Runs `operation` in a new task on the handler threads, so a busy global pool cannot
  /// delay it.
  private func startHandlerTask(_ operation: @escaping @Sendable () async -> Void) {
    if #available(macOS 15, *), let executor = handlerExecutor as? HandlerExecutor {
      Task(executorPreference: executor) {
        executor.taskStarted()
        await operation()
        executor.taskFinished()
      }
    } else {
      Task { await operation() }
    }
  }

  private func log(
    _ parsed: ParsedRequest?, _ response: HTTPResponse, peer: String,
    since: ContinuousClock.Instant?
  ) {
    guard let accessLog = configuration.accessLog else { return }
    accessLog(
      AccessLogEntry(
        method: parsed?.method ?? "-", target: parsed?.target ?? "-", status: response.status,
        bytes: response.body.count, latency: since.map { ContinuousClock.now - $0 } ?? .zero,
        peer: peer))
  }

  private func deliver(_ completion: Completion) {
    guard Int(completion.fd) < connections.count,
      let connection = connections[Int(completion.fd)], connection.id == completion.id,
      connection.inFlight
    else { return }
    connection.inFlight = false
    let keep = encoder.encode(
      completion.response, headOnly: connection.inFlightIsHead,
      keepAlive: connection.inFlightKeepAlive && !draining, http10: connection.inFlightHTTP10,
      into: &connection.output)
    if !keep { connection.closeAfterWrite = true }
    flush(connection)
  }

  /// Answers a request the server refuses itself, then closes.
  private func respondAndClose(_ connection: Connection, status: Int, reason: String) {
    let response = ResponseEncoder.errorResponse(status: status, reason: reason)
    log(nil, response, peer: connection.peer, since: nil)
    _ = encoder.encode(
      response, headOnly: false, keepAlive: false, http10: false, into: &connection.output)
    connection.closeAfterWrite = true
    connection.pending = []
    flush(connection)
  }

  // MARK: - Writing

  /// Writes what the socket takes; on completion closes, or goes on with the next request.
  private func flush(_ connection: Connection) {
    while !connection.outputDrained {
      let sent: Int
      do {
        sent = try connection.output.withUnsafeBytes { raw throws(SystemCallError) in
          try SystemCall.send(
            connection.fd, UnsafeRawBufferPointer(rebasing: raw[connection.outputOffset...]))
        }
      } catch {
        close(connection)
        return
      }
      if sent == 0 {
        if !connection.watchingWrite {
          watch(connection, read: connection.watchingRead, write: true)
        }
        if connection.deadline != .write { setDeadline(connection, .write) }
        return
      }
      connection.outputOffset += sent
    }
    if connection.output.capacity > 64 * 1024 {
      connection.output = []
    } else {
      connection.output.removeAll(keepingCapacity: true)
    }
    connection.outputOffset = 0
    if connection.inFlight {
      // Only the interim 100 Continue was written; the request body is still coming.
      if connection.watchingWrite { watch(connection, read: true, write: false) }
      setDeadline(connection, .none)
      return
    }
    if connection.closeAfterWrite {
      beginLinger(connection)
      return
    }
    if connection.parser.isReadingBody {
      // After 100 Continue: keep reading the body, starting with what arrived meanwhile.
      if connection.watchingWrite || !connection.watchingRead {
        watch(connection, read: true, write: false)
      }
      setDeadline(connection, .body)
      if !connection.pending.isEmpty {
        let bytes = connection.pending
        connection.pending = []
        bytes.withUnsafeBufferPointer { feed(connection, $0) }
      }
      return
    }
    resume(connection)
  }

  // MARK: - Closing

  /// Half-closes and drains for a while, so the client reads our last response instead of
  /// getting a reset for the bytes it sent after it.
  private func beginLinger(_ connection: Connection) {
    shutdown(connection.fd, Int32(SHUT_WR))
    if connection.readClosed {
      close(connection)
      return
    }
    connection.pending = []
    watch(connection, read: true, write: false)
    connection.deadline = .linger
    connection.deadlineAt = now &+ EventLoop.lingerNanos
  }

  private func lingerRead(_ connection: Connection) {
    while true {
      guard let n = receive(connection) else { return }
      connection.lingerBytes += n
      if n == 0 || connection.lingerBytes > EventLoop.maxLingerBytes {
        close(connection)
        return
      }
    }
  }

  private func close(_ connection: Connection) {
    guard Int(connection.fd) < connections.count,
      connections[Int(connection.fd)] === connection
    else { return }
    connections[Int(connection.fd)] = nil
    openCount -= 1
    SystemCall.close(connection.fd)
  }

  private func watch(_ connection: Connection, read: Bool, write: Bool) {
    guard read != connection.watchingRead || write != connection.watchingWrite else { return }
    connection.watchingRead = read
    connection.watchingWrite = write
    do {
      try poller.modify(connection.fd, read: read, write: write)
    } catch {
      close(connection)
    }
  }

  // MARK: - Deadlines

  private func setDeadline(_ connection: Connection, _ kind: Connection.Deadline) {
    connection.deadline = kind
    switch kind {
    case .none: connection.deadlineAt = 0
    case .header: connection.deadlineAt = now &+ EventLoop.nanos(configuration.headerReadTimeout)
    case .body: connection.deadlineAt = now &+ EventLoop.nanos(configuration.bodyReadTimeout)
    case .idle: connection.deadlineAt = now &+ EventLoop.nanos(configuration.idleTimeout)
    case .write: connection.deadlineAt = now &+ EventLoop.nanos(configuration.writeTimeout)
    case .linger: connection.deadlineAt = now &+ EventLoop.lingerNanos
    }
  }

  private func scanDeadlines() {
    for case let connection? in connections
    where connection.deadline != .none && connection.deadlineAt <= now {
      switch connection.deadline {
      case .none:
        break
      case .header, .body:
        if connection.inFlight || !connection.outputDrained {
          setDeadline(connection, .none)
        } else if connection.deadline == .header && connection.parser.isAtRequestBoundary
          && connection.pending.isEmpty
        {
          // Connected but never sent a byte: nothing to answer.
          close(connection)
        } else {
          respondAndClose(connection, status: 408, reason: "request not received in time")
        }
      case .write:
        // Reset rather than close: the kernel would otherwise keep trying to deliver the
        // unread response to a client that does not read.
        var hard = linger(l_onoff: 1, l_linger: 0)
        setsockopt(
          connection.fd, SOL_SOCKET, SO_LINGER, &hard, socklen_t(MemoryLayout<linger>.size))
        close(connection)
      case .idle, .linger:
        close(connection)
      }
    }
  }
}
