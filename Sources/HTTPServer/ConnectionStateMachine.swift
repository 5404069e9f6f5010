/// The lifecycle of one client connection, as a plain state machine with no I/O.
///
/// The event loop tells it what happened (bytes read, the peer closed, a handler answered, a
/// write finished or blocked, time passed, shutdown began) and carries out the actions it
/// returns (dispatch a request, write a response, watch the socket, arm a timer, close). Time
/// is passed in with every event (monotonic nanoseconds), so tests drive it with a clock of
/// their own and no sockets.
///
/// At most one request per connection is with a handler at a time. Bytes that arrive
/// meanwhile (pipelined requests) wait in ``pending``, at most ``maxPendingBytes`` before the
/// machine stops reading, and are parsed once the previous response is written, so responses
/// go out in request order.
///
/// While the server shuts down (``Event/shutdownBegan``), a connection with nothing to do is
/// closed at once; every request whose bytes the server already holds is answered first, the
/// last one with `Connection: close`. An idle connection is closed with
/// ``Action/closeUnlessReadable``, so bytes that reached its socket are read and answered
/// instead; and the loop reads what a socket holds before it reports
/// ``Event/responseReady(_:)`` during a shutdown, so "nothing pending" there means nothing
/// has arrived and the answer can carry `Connection: close`.
struct ConnectionStateMachine {
  /// The timeouts, in nanoseconds.
  ///
  /// Like ``HTTPParserLimits``, one immutable heap object shared by every copy, so each
  /// connection's machine holds a reference instead of five numbers.
  struct Timeouts: Equatable {
    private final class Storage: Sendable {
      let header: UInt64
      let body: UInt64
      let idle: UInt64
      let write: UInt64
      let linger: UInt64

      init(header: UInt64, body: UInt64, idle: UInt64, write: UInt64, linger: UInt64) {
        self.header = header
        self.body = body
        self.idle = idle
        self.write = write
        self.linger = linger
      }
    }

    private let storage: Storage

    init(
      header: UInt64, body: UInt64, idle: UInt64, write: UInt64,
      linger: UInt64 = ConnectionStateMachine.lingerNanos
    ) {
      storage = Storage(header: header, body: body, idle: idle, write: write, linger: linger)
    }

    var header: UInt64 { storage.header }
    var body: UInt64 { storage.body }
    var idle: UInt64 { storage.idle }
    var write: UInt64 { storage.write }
    var linger: UInt64 { storage.linger }

    static func == (lhs: Timeouts, rhs: Timeouts) -> Bool {
      lhs.header == rhs.header && lhs.body == rhs.body && lhs.idle == rhs.idle
        && lhs.write == rhs.write && lhs.linger == rhs.linger
    }
  }

  /// What a running timer is waiting for.
  enum Timer: Equatable {
    /// The rest of a request head (a fresh connection's first byte, too).
    case header
    /// The rest of a request body.
    case body
    /// A next request on a keep-alive connection.
    case idle
    /// A client to read the response being written.
    case write
    /// The client to stop sending after our last response.
    case linger
  }

  /// How a request that is with its handler wants its answer written.
  struct Exchange: Equatable {
    /// The request was `HEAD`: headers and length only.
    var headOnly: Bool
    /// The request allows keep-alive.
    var keepAlive: Bool
    /// The request was HTTP/1.0.
    var http10: Bool
  }

  /// A handler's response, with how to write it.
  struct Reply {
    var response: HTTPResponse
    var headOnly: Bool
    /// Whether the connection stays open (false writes `Connection: close`).
    var keepAlive: Bool
    var http10: Bool
  }

  /// Something that happened to the connection.
  enum Event {
    /// Bytes arrived (never empty; end of stream is ``endOfInput``).
    case bytesRead(UnsafeBufferPointer<UInt8>)
    /// The peer closed its sending side.
    case endOfInput
    /// The handler answered the request in flight.
    case responseReady(HTTPResponse)
    /// Everything written so far has gone to the socket.
    case writeDrained
    /// A write left bytes the socket would not take yet.
    case writeBlocked
    /// Time passed (the loop's timer scan).
    case tick
    /// The server began a graceful shutdown.
    case shutdownBegan
  }

  /// What the loop must do, in order.
  enum Action {
    /// Run the handler for this request; report its answer as ``Event/responseReady(_:)``.
    case dispatch(ParsedRequest)
    /// Encode and write a handler's response.
    case send(Reply)
    /// Write an answer of the server's own (`{"error":reason}`) and log it.
    case sendError(status: Int, reason: String, request: ParsedRequest?, keepAlive: Bool)
    /// Write the interim `100 Continue`.
    case sendContinue
    /// Change what the socket is watched for.
    case watch(read: Bool, write: Bool)
    /// Run `timer` until `at`; report ``Event/tick`` when the time has come.
    case armTimer(Timer, at: UInt64)
    /// No timer runs.
    case cancelTimer
    /// Shut down the write side and keep reading (discarding) until the peer closes.
    case lingerClose
    /// Close the socket at once unless bytes are waiting in it; then read them and report
    /// them (``Event/bytesRead(_:)`` or ``Event/endOfInput``) instead. For closing an idle
    /// connection during shutdown: a request that reached the socket is answered, and the
    /// time between the last look and the close is as short as the loop can make it.
    case closeUnlessReadable
    /// Close the socket.
    case close
    /// Close the socket with a reset (`SO_LINGER` 0): the client stopped reading.
    case reset
  }

  /// Where the connection is.
  enum State: Equatable {
    /// Between requests, nothing pending; `fresh` before the first byte ever.
    case idle(fresh: Bool)
    /// Part of a request has arrived.
    case reading
    /// A handler has the request.
    case handling(Exchange)
    /// A final response is being written; `closeAfter` ends the connection after it.
    case writing(closeAfter: Bool)
    /// After the last response: discarding what the client still sends, `drained` bytes so far.
    case lingering(drained: Int)
    /// Gone.
    case closed
  }

  /// Most bytes buffered while the previous request is being answered.
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

  /// Whether a handler's response asks to close the connection (`Connection: close`).
  static func asksToClose(_ response: HTTPResponse) -> Bool {
    if let wire = response.headers.wire { return wire.asksToClose }
    for field in response.headers where field.name.caseInsensitiveEquals("connection") {
      if field.value.lowercased().contains("close") { return true }
    }
    return false
  }

  // The stored properties are ordered so that the small ones share the padding of the
  // large ones: every open connection holds one machine, idle or not.

  private var parser: HTTPRequestParser
  private let timeouts: Timeouts
  /// Bytes read but not parsed yet (released once parsed).
  private(set) var pending: [UInt8] = []
  /// The running timer: when it fires, and what it waits for.
  private(set) var timer: (at: UInt64, kind: Timer)?
  /// The server is shutting down.
  private(set) var draining = false
  private var readClosed = false
  private var outputPending = false
  private var watchingRead = true
  private var watchingWrite = false
  private(set) var state: State = .idle(fresh: true)

  /// The heap bytes the machine holds: pending bytes and the parser's (0 while idle).
  var heldBytes: Int { pending.capacity + parser.heldBytes }

  /// A machine for a just-accepted connection, watched for reading with no timer yet: call
  /// ``start(now:)`` for the first actions.
  init(limits: HTTPParserLimits, timeouts: Timeouts) {
    self.parser = HTTPRequestParser(limits: limits)
    self.timeouts = timeouts
  }

  /// The actions for a connection just accepted: the header timer (a client that never sends
  /// a byte is closed when it fires).
  mutating func start(now: UInt64, into actions: inout [Action]) {
    arm(.header, now, &actions)
  }

  /// Handles `event` at time `now`, returning the actions in order.
  mutating func handle(_ event: Event, now: UInt64) -> [Action] {
    var actions: [Action] = []
    handle(event, now: now, into: &actions)
    return actions
  }

  /// Handles `event` at time `now`, appending the actions to `actions` in order.
  mutating func handle(_ event: Event, now: UInt64, into actions: inout [Action]) {
    switch event {
    case .bytesRead(let bytes): bytesRead(bytes, now, &actions)
    case .endOfInput: endOfInput(&actions)
    case .responseReady(let response): responseReady(response, &actions)
    case .writeDrained: writeDrained(now, &actions)
    case .writeBlocked: writeBlocked(now, &actions)
    case .tick: tick(now, &actions)
    case .shutdownBegan: shutdownBegan(&actions)
    }
  }

  // MARK: - Events

  private mutating func bytesRead(
    _ bytes: UnsafeBufferPointer<UInt8>, _ now: UInt64, _ actions: inout [Action]
  ) {
    switch state {
    case .closed:
      return
    case .lingering(let drained):
      let total = drained + bytes.count
      if total > ConnectionStateMachine.maxLingerBytes {
        close(&actions)
      } else {
        state = .lingering(drained: total)
      }
    case .handling, .writing:
      pending.append(contentsOf: bytes)
      if pending.count >= ConnectionStateMachine.maxPendingBytes {
        setWatch(read: false, write: watchingWrite, &actions)
      }
    case .idle(let fresh):
      // A fresh connection's header timer runs from the accept.
      state = .reading
      if !fresh { arm(.header, now, &actions) }
      feed(bytes, now, &actions)
    case .reading:
      feed(bytes, now, &actions)
    }
  }

  private mutating func endOfInput(_ actions: inout [Action]) {
    switch state {
    case .closed:
      return
    case .handling, .writing:
      // The client may still read: answer what it sent, then close.
      readClosed = true
      setWatch(read: false, write: watchingWrite, &actions)
    case .idle, .reading, .lingering:
      // Nothing to answer: a partial request can never complete.
      close(&actions)
    }
  }

  private mutating func responseReady(_ response: HTTPResponse, _ actions: inout [Action]) {
    guard case .handling(let exchange) = state else { return }
    // While shutting down, the last request the server holds is answered with close; one
    // with more requests behind it keeps the connection so they are answered too.
    let keep =
      exchange.keepAlive && !ConnectionStateMachine.asksToClose(response)
      && !(draining && pending.isEmpty)
    state = .writing(closeAfter: !keep)
    outputPending = true
    actions.append(
      .send(
        Reply(
          response: response, headOnly: exchange.headOnly, keepAlive: keep,
          http10: exchange.http10)))
  }

  private mutating func writeBlocked(_ now: UInt64, _ actions: inout [Action]) {
    guard state != .closed else { return }
    setWatch(read: watchingRead, write: true, &actions)
    if timer?.kind != .write { arm(.write, now, &actions) }
  }

  private mutating func writeDrained(_ now: UInt64, _ actions: inout [Action]) {
    guard outputPending else { return }
    outputPending = false
    if watchingWrite { setWatch(read: watchingRead, write: false, &actions) }
    switch state {
    case .closed, .idle, .lingering:
      return
    case .reading:
      // The interim 100 Continue went out; the body is still coming.
      if timer?.kind == .write { arm(.body, now, &actions) }
    case .handling:
      // The interim 100 Continue went out after the body had already arrived.
      if timer != nil { cancelTimer(&actions) }
    case .writing(closeAfter: true):
      if readClosed {
        close(&actions)
        return
      }
      state = .lingering(drained: 0)
      pending = []
      setWatch(read: true, write: false, &actions)
      actions.append(.lingerClose)
      arm(.linger, now, &actions)
    case .writing(closeAfter: false):
      nextRequest(now, &actions)
    }
  }

  private mutating func tick(_ now: UInt64, _ actions: inout [Action]) {
    guard let timer, now >= timer.at else { return }
    switch (timer.kind, state) {
    case (.header, .idle), (.idle, .idle):
      // Connected or kept alive but sent nothing: nothing to answer.
      close(&actions)
    case (.header, .reading), (.body, .reading):
      refuse(status: 408, reason: "request not received in time", &actions)
    case (.write, _):
      state = .closed
      self.timer = nil
      actions.append(.reset)
    case (.linger, _):
      close(&actions)
    default:
      // A timer left from an earlier state: nothing to do.
      cancelTimer(&actions)
    }
  }

  private mutating func shutdownBegan(_ actions: inout [Action]) {
    draining = true
    if case .idle = state { actions.append(.closeUnlessReadable) }
  }

  // MARK: - Parsing

  /// Parses `bytes`; stops at the first complete request, keeping the rest in `pending`.
  private mutating func feed(
    _ bytes: UnsafeBufferPointer<UInt8>, _ now: UInt64, _ actions: inout [Action]
  ) {
    var offset = 0
    while offset < bytes.count {
      let (event, used) = parser.consume(UnsafeBufferPointer(rebasing: bytes[offset...]))
      offset += used
      // Consumed: the request in it is moved out, not copied and destroyed.
      switch consume event {
      case .needMore:
        continue
      case .headComplete:
        arm(.body, now, &actions)
        guard let expect = parser.headerValue("expect") else { continue }
        if expect.trimmingSpacesAndTabs().caseInsensitiveEquals("100-continue") {
          if parser.currentMinorVersion >= 1 {
            outputPending = true
            actions.append(.sendContinue)
          }
        } else {
          refuse(status: 417, reason: "unsupported expectation", &actions)
          return
        }
      case .request(let request):
        if offset < bytes.count {
          pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
        }
        dispatch(request, &actions)
        return
      case .failure(let failure):
        refuse(
          status: failure.status, reason: failure.reason, request: failure.request, &actions)
        return
      }
    }
  }

  private mutating func dispatch(_ request: consuming ParsedRequest, _ actions: inout [Action]) {
    cancelTimer(&actions)
    guard ConnectionStateMachine.isKnownMethod(request.method) else {
      // The connection stays usable (the request was read whole).
      let keep = request.keepAlive && !(draining && pending.isEmpty)
      state = .writing(closeAfter: !keep)
      outputPending = true
      actions.append(
        .sendError(
          status: 501, reason: "method \(request.method) is not implemented", request: request,
          keepAlive: keep))
      return
    }
    state = .handling(
      Exchange(
        headOnly: request.method == "HEAD", keepAlive: request.keepAlive,
        http10: request.version.minor == 0))
    actions.append(.dispatch(request))
  }

  /// After a kept-alive response: parse what is pending, or wait for the next request.
  private mutating func nextRequest(_ now: UInt64, _ actions: inout [Action]) {
    state = .reading
    if !pending.isEmpty {
      let bytes = pending
      pending = []
      arm(.header, now, &actions)
      bytes.withUnsafeBufferPointer { feed($0, now, &actions) }
    }
    switch state {
    case .handling, .writing:
      if !readClosed && pending.count < ConnectionStateMachine.maxPendingBytes {
        setWatch(read: true, write: watchingWrite, &actions)
      }
      return
    case .reading:
      break
    default:
      return
    }
    if readClosed {
      // The client sent all it will; a partial request can never complete.
      close(&actions)
      return
    }
    setWatch(read: true, write: false, &actions)
    if parser.isAtRequestBoundary {
      state = .idle(fresh: false)
      if draining {
        cancelTimer(&actions)
        actions.append(.closeUnlessReadable)
      } else {
        arm(.idle, now, &actions)
      }
    }
  }

  /// Answers with an error of the server's own and closes after it; `request` is the head
  /// of the refused request when it was read whole.
  private mutating func refuse(
    status: Int, reason: String, request: ParsedRequest? = nil, _ actions: inout [Action]
  ) {
    cancelTimer(&actions)
    pending = []
    state = .writing(closeAfter: true)
    outputPending = true
    actions.append(
      .sendError(status: status, reason: reason, request: request, keepAlive: false))
  }

  // MARK: - Helpers

  private mutating func close(_ actions: inout [Action]) {
    state = .closed
    timer = nil
    pending = []
    actions.append(.close)
  }

  private mutating func arm(_ kind: Timer, _ now: UInt64, _ actions: inout [Action]) {
    let span: UInt64
    switch kind {
    case .header: span = timeouts.header
    case .body: span = timeouts.body
    case .idle: span = timeouts.idle
    case .write: span = timeouts.write
    case .linger: span = timeouts.linger
    }
    let at = now &+ span
    timer = (at, kind)
    actions.append(.armTimer(kind, at: at))
  }

  private mutating func cancelTimer(_ actions: inout [Action]) {
    guard timer != nil else { return }
    timer = nil
    actions.append(.cancelTimer)
  }

  private mutating func setWatch(read: Bool, write: Bool, _ actions: inout [Action]) {
    guard read != watchingRead || write != watchingWrite else { return }
    watchingRead = read
    watchingWrite = write
    actions.append(.watch(read: read, write: write))
  }
}
