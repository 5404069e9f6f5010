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
/// loop thread, which is why the class is `@unchecked Sendable`. The loop's own variables are
/// touched by that thread alone, and the shared ones only under `lock`, one access at a time,
/// so they skip the runtime's exclusivity checks (`@exclusivity(unchecked)`: each access cost
/// a call and a lookup, dozens per request).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class EventLoop: DeferredAnswerSink, @unchecked Sendable {
  /// A handler's answer on its way back to the loop.
  struct Completion {
    var fd: Int32
    var id: UInt64
    var response: HTTPResponse
    /// It answers a deferred immediate request (``HTTPImmediateAnswer/deferred``), not a
    /// handler task.
    var deferred = false
  }

  private let configuration: HTTPServerConfiguration
  private let handler: HTTPHandler
  private let immediate: HTTPImmediateHandler?
  private let limits: HTTPParserLimits
  private let timeouts: ConnectionStateMachine.Timeouts
  private let poller: Poller
  private var listenFD: Int32
  private let wakeReadFD: Int32
  private let wakeWriteFD: Int32
  /// The ``HandlerExecutor`` (behind a protocol so the class needs no availability
  /// annotation); nil only on Darwin before macOS 15, where handlers use the global pool.
  private let handlerExecutor: (any HandlerThreadControl)?

  // Loop-thread state.
  @exclusivity(unchecked) private var connections: [Connection?] = []
  @exclusivity(unchecked) private var openCount = 0
  /// Open connections per ``limitKey(_:)``, for the per-address limit.
  @exclusivity(unchecked) private var openByAddress: [String: Int] = [:]
  /// ``HTTPServerConfiguration/connectionLimitExemptAddresses`` as ``addressKey(_:)`` keys.
  private let exemptAddresses: Set<String>
  @exclusivity(unchecked) private var nextID: UInt64 = 1
  @exclusivity(unchecked) private var encoder = ResponseEncoder()
  /// The output buffer connections borrow for a write and give back once it has gone out
  /// (``Connection/borrowOutput(_:)``), so an idle connection holds none.
  @exclusivity(unchecked) private var outputScratch: [UInt8] = []
  /// What the connection being handled must do next: filled by its machine, emptied by
  /// ``perform(_:)`` (loop thread only, empty between events).
  @exclusivity(unchecked) private var actions: [ConnectionStateMachine.Action] = []
  private let readBuffer: UnsafeMutableRawBufferPointer
  @exclusivity(unchecked) private var now: UInt64 = 0
  @exclusivity(unchecked) private var nextScan: UInt64 = 0
  private let tickMillis: Int32
  /// What ``afterRound(_:)`` asked to run at the end of this round (loop thread only).
  @exclusivity(unchecked) private var roundEnd: [@Sendable () -> Void] = []
  /// The loop's half of a double buffer with `roundEnd` (loop thread only).
  @exclusivity(unchecked) private var spareRoundEnd: [@Sendable () -> Void] = []
  /// The loop thread, set by ``run()`` before it handles any event (and so before any
  /// responder exists that another thread could call).
  @exclusivity(unchecked) private var loopThread: pthread_t?
  /// The loop is running what ``onIOThread(_:)`` queued (loop thread only: read after
  /// ``isLoopThread``).
  @exclusivity(unchecked) private var runningTasks = false
  /// The round's answers, sent together at its end (nil: one `send` each; see ``SendBatch``).
  private let sendBatch: SendBatch?
  /// Whether answers made now wait for the end of the round.
  @exclusivity(unchecked) private var batchingSends = false
  /// ``HTTPServerConfiguration/busyPoll`` in nanoseconds (0: off).
  private let busyPollNanos: UInt64
  /// Deferred immediate answers being made off the loop thread, less those delivered (loop
  /// thread only). Handler tasks are not counted: they may take any time, and polling
  /// through them would spend a core on a slow handler.
  @exclusivity(unchecked) private var outstandingAnswers = 0
  /// When the loop last handled an event or an answer (loop thread only).
  @exclusivity(unchecked) private var lastProgress: UInt64 = 0
  /// Rounds the loop has run, sleeping or polling (loop thread only; for tests).
  @exclusivity(unchecked) private var rounds = 0
  /// Wake-up bytes written to the pipe for answers and tasks (under `lock`; for tests).
  @exclusivity(unchecked) private var answerWakeUps = 0
  @exclusivity(unchecked) private var acceptPausedUntil: UInt64 = 0
  @exclusivity(unchecked) private var draining = false
  @exclusivity(unchecked) private var drainDeadline: UInt64 = 0

  // Shared state, under `lock`.
  private let lock = NSLock()
  @exclusivity(unchecked) private var completions: [Completion] = []
  /// What ``onIOThread(_:)`` queued, run before the completions are delivered.
  @exclusivity(unchecked) private var tasks: [@Sendable () -> Void] = []
  /// The loop's half of a double buffer with `tasks` (loop thread only).
  @exclusivity(unchecked) private var spareTasks: [@Sendable () -> Void] = []
  /// The loop's half of a double buffer with `completions` (loop thread only).
  @exclusivity(unchecked) private var spareCompletions: [Completion] = []
  @exclusivity(unchecked) private var wakePending = false
  /// The loop is in (or about to enter) `epoll_wait`; only then does a completion need the pipe.
  @exclusivity(unchecked) private var sleeping = false
  @exclusivity(unchecked) private var shutdownRequest: UInt64?
  @exclusivity(unchecked) private var stopped = false
  @exclusivity(unchecked) private var waiters: [CheckedContinuation<Int, Never>] = []
  /// How many connections a graceful shutdown found still open at the end of its grace
  /// period, and closed (under `lock` once `stopped`).
  @exclusivity(unchecked) private var closedAtGraceEnd = 0
  /// Callers of ``snapshot()`` waiting for the loop to look.
  @exclusivity(unchecked) private var inspections:
    [CheckedContinuation<ConnectionsSnapshot, Never>] = []

  init(
    listenFD: Int32, configuration: HTTPServerConfiguration,
    immediate: HTTPImmediateHandler? = nil, handler: @escaping HTTPHandler
  ) throws(SystemCallError) {
    self.listenFD = listenFD
    self.sendBatch = configuration.batchesSends ? SendBatch.make() : nil
    self.configuration = configuration
    self.busyPollNanos = EventLoop.nanos(configuration.busyPoll)
    self.immediate = immediate
    self.handler = handler
    self.limits = configuration.parserLimits
    self.exemptAddresses = Set(
      configuration.connectionLimitExemptAddresses.map(EventLoop.addressKey))
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
    timeouts = ConnectionStateMachine.Timeouts(
      header: EventLoop.nanos(configuration.headerReadTimeout),
      body: EventLoop.nanos(configuration.bodyReadTimeout),
      idle: EventLoop.nanos(configuration.idleTimeout),
      write: EventLoop.nanos(configuration.writeTimeout))
    let shortest =
      [
        configuration.headerReadTimeout, configuration.bodyReadTimeout, configuration.idleTimeout,
        configuration.writeTimeout,
      ].map(EventLoop.nanos).min() ?? 1_000_000_000
    tickMillis = Int32(max(5, min(250, shortest / 4_000_000)))
    if #available(macOS 15, *) {
      handlerExecutor = HandlerExecutor(
        threads: configuration.handlerThreads, name: "http handler")
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

  /// Logs and queues a deferred immediate answer (any thread).
  func deliver(_ response: HTTPResponse, for answer: DeferredAnswer) {
    if let log = answer.log, let accessLog = configuration.accessLog {
      let elapsed = EventLoop.monotonicNow() &- log.start
      accessLog(
        AccessLogEntry(
          method: log.method, target: log.target, status: response.status,
          bytes: response.body.count, latency: .nanoseconds(Int64(clamping: elapsed)),
          peer: log.peer))
    }
    let completion = Completion(
      fd: answer.fd, id: answer.id, response: response, deferred: true)
    if isLoopThread && runningTasks {
      // Inside an ``onIOThread(_:)`` body the loop runs: straight to the connection, as the
      // completions taken right after these bodies would be, without the queue and its lock.
      deliver(completion)
    } else {
      complete(completion)
    }
  }

  /// Whether the caller is the loop's own thread (set before the loop's first event).
  private var isLoopThread: Bool {
    guard let loopThread else { return false }
    return pthread_equal(pthread_self(), loopThread) != 0
  }

  /// Queues `body` to run at the end of the current round (loop thread only: called from
  /// an immediate handler).
  func afterRound(_ body: @escaping @Sendable () -> Void) {
    roundEnd.append(body)
  }

  /// Queues `body` to run on the loop thread, before the answers waiting are delivered (any
  /// thread); dropped once the loop has stopped.
  func onIOThread(_ body: @escaping @Sendable () -> Void) {
    enqueue { tasks.append(body) }
  }

  /// Hands a handler's response back to the loop (any thread).
  func complete(_ completion: Completion) {
    enqueue { completions.append(completion) }
  }

  /// Runs `add` under the lock unless the loop has stopped, and wakes a sleeping loop.
  private func enqueue(_ add: () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    if stopped { return }
    add()
    if sleeping && !wakePending {
      wakePending = true
      answerWakeUps += 1
      wakeUpLocked()
    }
  }

  /// Asks the loop to shut down gracefully within `grace`; returns once it has stopped, with
  /// the number of connections still open at the end of the grace period (then closed).
  func requestShutdown(_ grace: Duration) async -> Int {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
      lock.lock()
      if stopped {
        let closed = closedAtGraceEnd
        lock.unlock()
        continuation.resume(returning: closed)
        return
      }
      waiters.append(continuation)
      if shutdownRequest == nil { shutdownRequest = EventLoop.nanos(grace) }
      wakeUpLocked()
      lock.unlock()
    }
  }

  /// How many connections the shutdown closed at the end of its grace period (0 before the
  /// loop has stopped).
  var closedAtGraceEndCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return stopped ? closedAtGraceEnd : 0
  }

  /// The open connections as the loop sees them between two events (any thread; for tests
  /// and diagnostics): empty once the loop has stopped.
  func snapshot() async -> ConnectionsSnapshot {
    await withCheckedContinuation {
      (continuation: CheckedContinuation<ConnectionsSnapshot, Never>) in
      lock.lock()
      if stopped {
        lock.unlock()
        continuation.resume(returning: ConnectionsSnapshot(connections: [], sharedOutputBytes: 0))
        return
      }
      inspections.append(continuation)
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
    loopThread = pthread_self()
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
        let idle =
          completions.isEmpty && tasks.isEmpty && (shutdownRequest == nil || draining)
        // Polling instead of sleeping while answers are being made elsewhere: one comes back
        // without the pipe and its wake-up (``HTTPServerConfiguration/busyPoll``).
        let polling =
          idle && busyPollNanos != 0 && outstandingAnswers > 0
          && now &- lastProgress < busyPollNanos
        let sleeps = idle && !polling
        sleeping = sleeps
        lock.unlock()
        try poller.wait(timeout: sleeps ? tickMillis : 0, into: &events)
        if sleeps {
          lock.lock()
          sleeping = false
          lock.unlock()
        } else if polling && events.isEmpty {
          sched_yield()
        }
      } catch {
        // Only EBADF/EINVAL-class failures reach here: nothing to recover.
        break
      }
      now = EventLoop.monotonicNow()
      rounds &+= 1
      batchingSends = sendBatch?.isUsable ?? false
      executor?.beginBatch()
      for event in events {
        if event.fd == listenFD {
          acceptConnections()
        } else if event.fd == wakeReadFD {
          drainWakePipe()
        } else if Int(event.fd) < connections.count, let connection = connections[Int(event.fd)] {
          // A wake-up alone (a snapshot, a shutdown request) is not progress.
          lastProgress = now
          if event.failed {
            close(connection)
            continue
          }
          if event.writable { writable(connection) }
          if event.readable, isOpen(connection) { readable(connection) }
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
      runRoundEnd()
      batchingSends = false
      sendBatched()
      if draining && (openCount == 0 || now >= drainDeadline) { break }
    }
    finish()
  }

  /// Empties the wake-up pipe: one read when it returns less than the buffer holds (the pipe
  /// was emptied; a byte written after it wakes the next `epoll_wait`, which is
  /// level-triggered), more only while reads fill the buffer.
  private func drainWakePipe() {
    while read(wakeReadFD, readBuffer.baseAddress, readBuffer.count) == readBuffer.count {}
  }

  /// Runs what immediate handlers asked for at the end of this round, including what those
  /// runs ask for.
  private func runRoundEnd() {
    while !roundEnd.isEmpty {
      // A double buffer, like `tasks`: what the bodies ask for goes to the other one.
      swap(&roundEnd, &spareRoundEnd)
      for body in spareRoundEnd { body() }
      spareRoundEnd.removeAll(keepingCapacity: true)
    }
  }

  private func takeCompletions() {
    lock.lock()
    if !tasks.isEmpty {
      swap(&tasks, &spareTasks)
      let stopping = shutdownRequest != nil || draining
      lock.unlock()
      // Their answers go to their connections as they are given (``deliver(_:for:)``), in
      // this same pass, as the completions taken just below do; while a shutdown begins
      // they join those completions, which are delivered once the connections know of it.
      runningTasks = !stopping
      lastProgress = now
      for task in spareTasks { task() }
      runningTasks = false
      spareTasks.removeAll(keepingCapacity: true)
      lock.lock()
    }
    swap(&completions, &spareCompletions)
    wakePending = false
    let wakeUps = answerWakeUps
    let grace = shutdownRequest
    let asked = inspections
    inspections.removeAll()
    lock.unlock()
    if let grace, !draining { beginDraining(grace) }
    if !spareCompletions.isEmpty { lastProgress = now }
    for completion in spareCompletions { deliver(completion) }
    spareCompletions.removeAll(keepingCapacity: true)
    if !asked.isEmpty {
      let snapshot = ConnectionsSnapshot(
        connections: connections.compactMap { $0.map(ConnectionsSnapshot.Entry.init) },
        sharedOutputBytes: outputScratch.capacity, sentBatches: sendBatch?.submissions ?? 0,
        rounds: rounds, answerWakeUps: wakeUps, outstandingAnswers: outstandingAnswers)
      for caller in asked { caller.resume(returning: snapshot) }
    }
  }

  private func finish() {
    let cut = draining ? openCount : 0
    for case let connection? in connections { close(connection) }
    if listenFD >= 0 {
      SystemCall.close(listenFD)
      listenFD = -1
    }
    lock.lock()
    stopped = true
    closedAtGraceEnd = cut
    completions.removeAll()
    tasks.removeAll()
    let toResume = waiters
    waiters.removeAll()
    let asked = inspections
    inspections.removeAll()
    lock.unlock()
    SystemCall.close(wakeReadFD)
    SystemCall.close(wakeWriteFD)
    handlerExecutor?.shutdownWhenIdle()
    for waiter in toResume { waiter.resume(returning: cut) }
    for caller in asked {
      caller.resume(returning: ConnectionsSnapshot(connections: [], sharedOutputBytes: 0))
    }
  }

  // MARK: - Shutdown

  /// Stops accepting and tells every connection; those with nothing to do close at once.
  ///
  /// Connections already in the kernel's accept queue are accepted first, and an idle
  /// connection is closed only if its socket holds nothing (``ConnectionStateMachine/Action/
  /// closeUnlessReadable``), so a request that has reached the server is answered, with
  /// `Connection: close`, rather than cut.
  private func beginDraining(_ grace: UInt64) {
    draining = true
    drainDeadline = now &+ grace
    if listenFD >= 0 {
      if acceptPausedUntil == 0 { acceptConnections(batch: Int.max) }
      poller.remove(listenFD)
      SystemCall.close(listenFD)
      listenFD = -1
    }
    for case let connection? in connections {
      connection.machine.handle(.shutdownBegan, now: now, into: &actions)
      perform(connection)
    }
  }

  // MARK: - Accepting

  /// Accepts up to `batch` connections (until the kernel's queue is empty).
  private func acceptConnections(batch: Int = 64) {
    var accepted = 0
    while accepted < batch {
      accepted += 1
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
      let peer = SystemCall.addressText(storage)
      if openCount >= configuration.maxConnections {
        refuseOverLimit(fd, peer: peer, reason: "too many connections")
        continue
      }
      let key = limitKey(peer)
      if let key, let limit = configuration.maxConnectionsPerAddress,
        openByAddress[key, default: 0] >= limit
      {
        refuseOverLimit(fd, peer: peer, reason: "too many connections from this address")
        continue
      }
      let connection = Connection(
        fd: fd, id: nextID, peer: peer, limitKey: key, limits: limits, timeouts: timeouts)
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
      if let key { openByAddress[key, default: 0] += 1 }
      connection.machine.start(now: now, into: &actions)
      perform(connection)
    }
  }

  /// What `peer` counts as for ``HTTPServerConfiguration/maxConnectionsPerAddress``, or nil
  /// when the limit is off or the address is exempt.
  private func limitKey(_ peer: String) -> String? {
    guard configuration.maxConnectionsPerAddress != nil else { return nil }
    let key = EventLoop.addressKey(peer)
    return exemptAddresses.contains(key) ? nil : key
  }

  /// The per-address limit's unit for a numeric address (``ClientAddress/limitKey(_:)``): an
  /// IPv4 address as it is (also when IPv4-mapped, `::ffff:10.0.0.1`), an IPv6 address as its
  /// /64 network (`20010db800000000::/64`).
  static func addressKey(_ peer: String) -> String {
    ClientAddress.limitKey(peer)
  }

  /// Answers 503 on a connection beyond a limit and closes it, without ever tracking it.
  /// Shaped by ``HTTPServerConfiguration/refusal`` as the other refusals are.
  private func refuseOverLimit(_ fd: Int32, peer: String, reason: String) {
    var out: [UInt8] = []
    _ = encoder.encode(
      refusalResponse(status: 503, reason: reason, request: nil),
      headOnly: false, keepAlive: false, http10: false, into: &out)
    _ = out.withUnsafeBytes { try? SystemCall.send(fd, $0) }
    // Read what already arrived so close() sends FIN, not RST, and the client sees the 503.
    _ = try? SystemCall.recv(fd, readBuffer)
    shutdown(fd, Int32(SHUT_WR))
    SystemCall.close(fd)
    let entry = AccessLogEntry(
      method: "-", target: "-", status: 503, bytes: 0, latency: .zero, peer: peer)
    configuration.accessLog?(entry)
    configuration.refusalLog?(entry)
  }

  // MARK: - Carrying out the machine's actions

  private func isOpen(_ connection: Connection) -> Bool {
    Int(connection.fd) < connections.count && connections[Int(connection.fd)] === connection
  }

  /// The answer to a request the server refuses itself: the configuration's
  /// ``HTTPServerConfiguration/refusal`` if it gives one, else `{"error":REASON}`.
  private func refusalResponse(
    status: Int, reason: String, request: ParsedRequest?
  ) -> HTTPResponse {
    if let refusal = configuration.refusal {
      let head = request.map {
        HTTPRequestHead(
          method: HTTPMethod(rawValue: $0.method), target: $0.target, version: $0.version,
          headers: $0.headers)
      }
      if var response = refusal(HTTPRefusal(status: status, reason: reason, head: head)) {
        response.status = status
        return response
      }
    }
    return ResponseEncoder.errorResponse(status: status, reason: reason)
  }

  /// Carries out ``actions`` in order and empties it; after any that produced output, writes
  /// what the socket takes and hands the outcome back to the machine, until nothing is left.
  private func perform(_ connection: Connection) {
    connection.borrowOutput(&outputScratch)
    defer { connection.returnOutput(&outputScratch) }
    while true {
      var wrote = false
      var index = 0
      while index < actions.count {
        // Moved out, a payload-free action left in its place: no copy of the request or
        // response it carries, and nothing but that placeholder for the clearing below.
        var action = ConnectionStateMachine.Action.cancelTimer
        swap(&action, &actions[index])
        index += 1
        switch consume action {
        case .dispatch(let request):
          dispatch(connection, request)
        case .send(let reply):
          _ = encoder.encode(
            reply.response, headOnly: reply.headOnly, keepAlive: reply.keepAlive,
            http10: reply.http10, into: &connection.output)
          wrote = true
        case .sendError(let status, let reason, let request, let keepAlive):
          let response = refusalResponse(status: status, reason: reason, request: request)
          log(request, response, peer: connection.peer, since: nil)
          if let refusalLog = configuration.refusalLog {
            refusalLog(
              AccessLogEntry(
                method: request?.method ?? "-", target: request?.target ?? "-",
                status: response.status, bytes: response.body.count, latency: .zero,
                peer: connection.peer))
          }
          _ = encoder.encode(
            response, headOnly: false, keepAlive: keepAlive,
            http10: request?.version.minor == 0, into: &connection.output)
          wrote = true
        case .sendContinue:
          connection.output.append(contentsOf: ResponseEncoder.continueResponse)
          wrote = true
        case .watch(let read, let write):
          watch(connection, read: read, write: write)
        case .armTimer(_, let at):
          connection.timerAt = at
        case .cancelTimer:
          connection.timerAt = 0
        case .lingerClose:
          shutdown(connection.fd, Int32(SHUT_WR))
        case .closeUnlessReadable:
          // Look and close back to back: the shorter the gap, the fewer requests can
          // arrive in it unanswered.
          do {
            if let n = try SystemCall.recv(connection.fd, readBuffer), n > 0 {
              let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])
              bytes.withMemoryRebound(to: UInt8.self) {
                connection.machine.handle(.bytesRead($0), now: now, into: &actions)
              }
            } else {
              close(connection)
            }
          } catch {
            close(connection)
          }
        case .close:
          close(connection)
        case .reset:
          // Reset rather than close: the kernel would otherwise keep trying to deliver the
          // unread response to a client that does not read.
          var hard = linger(l_onoff: 1, l_linger: 0)
          setsockopt(
            connection.fd, SOL_SOCKET, SO_LINGER, &hard, socklen_t(MemoryLayout<linger>.size))
          close(connection)
        }
        if !isOpen(connection) { break }
      }
      clearActions()
      guard isOpen(connection), wrote else { return }
      if batchingSends, let sendBatch {
        // Already waiting: this goes out after it, when the batch is sent.
        if connection.inSendBatch { return }
        if !sendBatch.isFull && sendBatch.takes(connection) {
          sendBatch.add(connection)
          connection.inSendBatch = true
          return
        }
      }
      guard let outcome = flush(connection) else { return }
      connection.machine.handle(outcome, now: now, into: &actions)
    }
  }

  /// Empties ``actions``, keeping its memory: from the end, one element at a time, which
  /// costs less than `removeAll(keepingCapacity:)`'s general range replacement for the two or
  /// three actions an event makes.
  private func clearActions() {
    while actions.popLast() != nil {}
  }

  /// Sends the round's answers in one submission, then carries on with each connection as
  /// after a `send` of its own: what was not taken (and anything written since) is written
  /// the usual way, and the machine hears how it went.
  private func sendBatched() {
    guard let sendBatch, !sendBatch.isEmpty else { return }
    // A connection closed since its answer was added (its descriptor may even serve a new
    // one by now) gets nothing.
    sendBatch.send(
      isLive: { isOpen($0) },
      then: { connection, rest in
        connection.inSendBatch = false
        guard isOpen(connection) else { return }
        if !rest.isEmpty {
          connection.output = Array(rest) + connection.output[connection.outputOffset...]
          connection.outputOffset = 0
        }
        guard let outcome = flush(connection) else { return }
        connection.machine.handle(outcome, now: now, into: &actions)
        perform(connection)
      })
  }

  /// Feeds the machine what the socket holds now, while shutting down, before it decides
  /// whether an answer is the connection's last (see ``ConnectionStateMachine``), adding to
  /// ``actions``; false when the connection was closed on a read error (``actions`` is then
  /// empty).
  private func absorbReadable(_ connection: Connection) -> Bool {
    guard draining else { return true }
    while connection.watchingRead
      && connection.machine.pending.count < ConnectionStateMachine.maxPendingBytes
    {
      let n: Int
      do {
        guard let count = try SystemCall.recv(connection.fd, readBuffer) else { return true }
        n = count
      } catch {
        close(connection)
        actions.removeAll(keepingCapacity: true)
        return false
      }
      if n == 0 {
        connection.machine.handle(.endOfInput, now: now, into: &actions)
        return true
      }
      let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])
      bytes.withMemoryRebound(to: UInt8.self) {
        connection.machine.handle(.bytesRead($0), now: now, into: &actions)
      }
      if case .closed = connection.machine.state { return true }
    }
    return true
  }

  // MARK: - Reading

  private func readable(_ connection: Connection) {
    // Level-triggered: an event reported before the machine stopped reading is stale.
    guard connection.watchingRead else { return }
    let n: Int
    do {
      guard let count = try SystemCall.recv(connection.fd, readBuffer) else { return }
      n = count
    } catch {
      close(connection)
      return
    }
    if n == 0 {
      connection.machine.handle(.endOfInput, now: now, into: &actions)
    } else {
      let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])
      bytes.withMemoryRebound(to: UInt8.self) {
        connection.machine.handle(.bytesRead($0), now: now, into: &actions)
      }
    }
    perform(connection)
  }

  // MARK: - Handlers

  private func dispatch(_ connection: Connection, _ parsed: ParsedRequest) {
    let fd = connection.fd
    let id = connection.id
    let request = HTTPRequest(
      method: HTTPMethod(rawValue: parsed.method), target: parsed.target,
      version: parsed.version, headers: parsed.headers, body: parsed.body,
      remoteAddress: connection.peer, pathIsTarget: parsed.pathIsTarget)
    // While draining, answers go through ``deliver(_:)``, which reads what is pending first.
    if let immediate, !draining {
      // Monotonic nanoseconds, not a `ContinuousClock.Instant`: an optional of that opaque
      // type took a dozen value-witness calls per request, logged or not.
      let start: UInt64? = configuration.accessLog == nil ? nil : EventLoop.monotonicNow()
      let responder = HTTPResponder(
        sink: self,
        answer: DeferredAnswer(
          fd: fd, id: id,
          log: start.map { (parsed.method, parsed.target, connection.peer, $0) }))
      switch immediate(request, responder) {
      case .response(let response)?:
        log(parsed, response, peer: connection.peer, since: start)
        // The machine asked for this answer with `.dispatch`, so it takes it at once; the
        // actions it adds run in the same pass of ``perform(_:)``.
        connection.machine.handle(.responseReady(response), now: now, into: &actions)
        return
      case .deferred?:
        outstandingAnswers += 1
        return
      case nil:
        break
      }
    }
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
    since: UInt64?
  ) {
    guard let accessLog = configuration.accessLog else { return }
    accessLog(
      AccessLogEntry(
        method: parsed?.method ?? "-", target: parsed?.target ?? "-", status: response.status,
        bytes: response.body.count,
        latency: since.map { .nanoseconds(Int64(clamping: EventLoop.monotonicNow() &- $0)) }
          ?? .zero,
        peer: peer))
  }

  private func deliver(_ completion: Completion) {
    // A deferred answer is no longer awaited, whether or not its connection is still open.
    if completion.deferred && outstandingAnswers > 0 { outstandingAnswers -= 1 }
    guard Int(completion.fd) < connections.count,
      let connection = connections[Int(completion.fd)], connection.id == completion.id
    else { return }
    guard absorbReadable(connection) else { return }
    connection.machine.handle(.responseReady(completion.response), now: now, into: &actions)
    perform(connection)
  }

  // MARK: - Writing

  /// Writes what the socket takes: `.writeDrained` when all is out, `.writeBlocked` when some
  /// is left, nil when the send failed (the connection is then closed).
  private func flush(_ connection: Connection) -> ConnectionStateMachine.Event? {
    while !connection.outputDrained {
      let sent: Int
      do {
        sent = try connection.output.withUnsafeBytes { raw throws(SystemCallError) in
          try SystemCall.send(
            connection.fd, UnsafeRawBufferPointer(rebasing: raw[connection.outputOffset...]))
        }
      } catch {
        close(connection)
        return nil
      }
      if sent == 0 { return .writeBlocked }
      connection.outputOffset += sent
    }
    if connection.output.capacity > 64 * 1024 {
      connection.output = []
    } else if !connection.output.isEmpty {
      connection.output.removeAll(keepingCapacity: true)
    }
    connection.outputOffset = 0
    return .writeDrained
  }

  private func writable(_ connection: Connection) {
    guard let outcome = flush(connection) else { return }
    connection.machine.handle(outcome, now: now, into: &actions)
    perform(connection)
  }

  // MARK: - Closing

  private func close(_ connection: Connection) {
    guard isOpen(connection) else { return }
    // The socket first, the bookkeeping after (only this thread reuses descriptor numbers).
    SystemCall.close(connection.fd)
    connections[Int(connection.fd)] = nil
    openCount -= 1
    if let key = connection.limitKey {
      let left = openByAddress[key, default: 1] - 1
      openByAddress[key] = left > 0 ? left : nil
    }
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

  // MARK: - Timers

  private func scanDeadlines() {
    for case let connection? in connections
    where connection.timerAt != 0 && connection.timerAt <= now {
      connection.machine.handle(.tick, now: now, into: &actions)
      perform(connection)
    }
  }
}
