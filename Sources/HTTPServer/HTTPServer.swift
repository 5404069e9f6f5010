import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An HTTP/1.1 server on POSIX sockets.
///
/// One I/O thread runs an event loop (epoll on Linux) over every connection; each complete
/// request runs its handler in a `Task` on the server's own executor, a fixed set of
/// ``HTTPServerConfiguration/handlerThreads`` threads, so a slow handler or a slow client
/// never delays the others and a busy global concurrency pool never delays the server. See `docs/http-server.md` for the model and
/// `docs/threat_model.md` for what it refuses. Needs macOS 13 (iOS 16) or later, for
/// `Duration`; handlers run on the server's own threads from macOS 15, on the global pool before.
///
/// ```swift
/// var router = Router()
/// router.get("/hello") { _ in .json(#"{"hello":"world"}"#) }
/// let server = HTTPServer(configuration: .init(port: 0), handler: router.handler)
/// let port = try server.start()
/// await server.runUntilSignalled(gracePeriod: .seconds(10))
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public final class HTTPServer: Sendable {
  /// The configuration the server was created with.
  public let configuration: HTTPServerConfiguration
  private let handler: HTTPHandler
  private let immediate: HTTPImmediateHandler?
  let state = ServerState()

  /// Creates a server; nothing is bound until ``start()``.
  ///
  /// With `immediate`, the I/O thread first offers each request to it and sends its answer
  /// at once; only the requests it returns nil for go to `handler` (see
  /// ``HTTPImmediateHandler``).
  public init(
    configuration: HTTPServerConfiguration, immediate: HTTPImmediateHandler? = nil,
    handler: @escaping HTTPHandler
  ) {
    self.configuration = configuration
    self.immediate = immediate
    self.handler = handler
  }

  /// A server released while running closes its socket and connections at once.
  deinit {
    state.withLock { $0.loop }?.requestStop()
  }

  /// Binds, listens and starts the I/O thread; returns the bound port.
  ///
  /// SIGPIPE is ignored for the process from here on. The process's soft descriptor limit
  /// is raised towards what ``HTTPServerConfiguration/maxConnections`` needs (never past
  /// the hard limit); where it stays too low, the connection limits are lowered to fit it
  /// (``connectionLimits``). Throws when the address cannot be
  /// resolved or bound (`kind` `.bind` with `errno` `EADDRINUSE`, for instance), when the
  /// configuration is impossible, or when the server was already started.
  @discardableResult
  public func start() throws(HTTPServerError) -> Int {
    try validate(configuration)
    SystemCall.ignoreSIGPIPE()
    try state.withLock { (s: inout ServerState.Values) throws(HTTPServerError) in
      guard !s.started else {
        throw HTTPServerError(kind: .alreadyStarted, message: "the server was already started")
      }
      let (fd, port) = try Listener.open(
        host: configuration.host, port: configuration.port, backlog: configuration.backlog)
      // Fewer descriptors than connections would stall every client once they run out,
      // without a 503 for anyone (HTTPConnectionLimits).
      let limits = HTTPConnectionLimits.raisingDescriptorLimit(for: configuration)
      var fitted = configuration
      fitted.maxConnections = limits.maxConnections
      fitted.maxConnectionsPerAddress = limits.maxConnectionsPerAddress
      let loop: EventLoop
      do throws(SystemCallError) {
        loop = try EventLoop(
          listenFD: fd, configuration: fitted, immediate: immediate, handler: handler)
      } catch {
        SystemCall.close(fd)
        throw HTTPServerError(
          kind: .eventLoop, message: "cannot set up the event loop", errno: error.errno,
          syscall: error.call)
      }
      let thread = Thread {
        ThreadName.setForCurrentThread("http io")
        loop.run()
      }
      thread.name = "http io"
      thread.start()
      s.started = true
      s.loop = loop
      s.port = port
      s.limits = limits
    }
    return port
  }

  /// The connection limits the server enforces once started: the configuration's, or lower
  /// where the process's descriptor limit cannot hold them (``HTTPConnectionLimits``); the
  /// configuration's before ``start()``.
  public var connectionLimits: HTTPConnectionLimits {
    state.withLock { s in
      s.limits
        ?? HTTPConnectionLimits(
          maxConnections: configuration.maxConnections,
          maxConnectionsPerAddress: configuration.maxConnectionsPerAddress)
    }
  }

  /// The bound port once started (the real one when configured with 0), else the configured one.
  public var port: Int {
    state.withLock { s in s.loop == nil ? configuration.port : s.port }
  }

  /// Stops accepting, lets in-flight requests finish within `gracePeriod`, closes idle
  /// connections, and returns once every connection is closed.
  ///
  /// Connections already in the kernel's accept queue are taken, then new ones are refused.
  /// Every request whose bytes have reached the server (read, pipelined behind another, or
  /// still in the socket) is answered, the last one on each connection with
  /// `Connection: close`; connections with nothing to answer close at once. Connections
  /// still busy when the grace period ends are closed. Returns at once if the server never
  /// started; calling it again waits for the same shutdown. How many were closed that way:
  /// ``connectionsClosedAtGraceEnd``.
  public func shutdown(gracePeriod: Duration) async {
    let loop = state.withLock { s in
      s.shutDown = true
      return s.loop
    }
    guard let loop else { return }
    _ = await loop.requestShutdown(gracePeriod)
  }

  /// How many connections ``shutdown(gracePeriod:)`` found still open when its grace period
  /// ended, and closed: a request not yet received whole, a handler not finished, or an
  /// answer its client did not read. Zero before a shutdown has ended, or when every
  /// connection finished in time.
  public var connectionsClosedAtGraceEnd: Int {
    state.withLock { s in s.loop }?.closedAtGraceEndCount ?? 0
  }

  private func validate(_ c: HTTPServerConfiguration) throws(HTTPServerError) {
    let positive: [(String, Int)] = [
      ("maxRequestLineBytes", c.maxRequestLineBytes), ("maxHeaderBytes", c.maxHeaderBytes),
      ("maxHeaderCount", c.maxHeaderCount), ("maxConnections", c.maxConnections),
      ("backlog", c.backlog), ("handlerThreads", c.handlerThreads),
    ]
    for (name, value) in positive where value <= 0 {
      throw HTTPServerError(kind: .invalidConfiguration, message: "\(name) must be positive")
    }
    if let perAddress = c.maxConnectionsPerAddress, perAddress <= 0 {
      throw HTTPServerError(
        kind: .invalidConfiguration,
        message: "maxConnectionsPerAddress must be positive (nil turns the limit off)")
    }
    if c.maxBodyBytes < 0 {
      throw HTTPServerError(
        kind: .invalidConfiguration, message: "maxBodyBytes must not be negative")
    }
    if c.bodyLimit != nil && c.bodyLimitCeiling < c.maxBodyBytes {
      throw HTTPServerError(
        kind: .invalidConfiguration,
        message: "bodyLimitCeiling must not be below maxBodyBytes when bodyLimit is set")
    }
    if !(0...65535).contains(c.port) {
      throw HTTPServerError(kind: .invalidConfiguration, message: "port \(c.port) is out of range")
    }
    for (name, d) in [
      ("headerReadTimeout", c.headerReadTimeout), ("bodyReadTimeout", c.bodyReadTimeout),
      ("idleTimeout", c.idleTimeout), ("writeTimeout", c.writeTimeout),
    ] where d <= .zero {
      throw HTTPServerError(kind: .invalidConfiguration, message: "\(name) must be positive")
    }
  }
}

/// The mutable part of ``HTTPServer``, behind a lock.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
final class ServerState: @unchecked Sendable {
  struct Values {
    var started = false
    var shutDown = false
    var loop: EventLoop?
    var port = 0
    var limits: HTTPConnectionLimits?
  }

  private let lock = NSLock()
  private var values = Values()

  func withLock<T, E: Error>(_ body: (inout Values) throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&values)
  }
}
