import Foundation

/// Where an ``HTTPServer`` listens and the limits it enforces.
///
/// Every limit has a safe default; tests shrink the timeouts. A request that breaks a limit
/// is answered with the status named next to it and its connection is closed. Needs macOS 13
/// (iOS 16) or later, for `Duration`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct HTTPServerConfiguration: Sendable {
  /// The address to bind: an IPv4 or IPv6 literal or a host name. Default `127.0.0.1`.
  ///
  /// `0.0.0.0` listens on every IPv4 interface, `::` on every IPv6 and IPv4 interface.
  public var host: String = "127.0.0.1"
  /// The TCP port. Default 8080; 0 picks a free port (read it from ``HTTPServer/port``).
  public var port: Int = 8080
  /// The `listen(2)` backlog. Default 1024.
  public var backlog: Int = 1024
  /// Longest request line, CRLF excluded. Default 8 KiB; beyond it 414.
  public var maxRequestLineBytes: Int = 8192
  /// Largest header block (all field lines together). Default 32 KiB; beyond it 431.
  public var maxHeaderBytes: Int = 32768
  /// Most header fields in one request. Default 100; beyond it 431.
  public var maxHeaderCount: Int = 100
  /// Largest request body, checked against `Content-Length` before reading and counted
  /// while de-chunking. Default 1 MiB; beyond it 413.
  ///
  /// With ``bodyLimit`` set, this is the limit of every request it answers nil for.
  public var maxBodyBytes: Int = 1 << 20
  /// The largest body limit ``bodyLimit`` may grant one request. Default 32 MiB; a larger
  /// answer is lowered to it. Must not be below ``maxBodyBytes`` when ``bodyLimit`` is set.
  ///
  /// A hard bound that holds whatever the decider does: no request can make the server
  /// buffer more than this.
  public var bodyLimitCeiling: Int = 32 << 20
  /// Decides the body limit of one request from its head, or nil for ``maxBodyBytes`` for
  /// every request. Default nil.
  ///
  /// Called once per request that has a body (a positive `Content-Length`, or chunked),
  /// after its head is read and before any body byte is: the answer, between 0 and
  /// ``bodyLimitCeiling``, is checked against `Content-Length` at once (413 before any
  /// `100 Continue`) and against the chunk sizes as they arrive. Return nil to keep
  /// ``maxBodyBytes``. Grant a large limit only to requests that prove they may send one
  /// (a credential in a header, a route that needs it), or anyone can make the server hold
  /// that much per connection. It runs on the I/O thread, so it must be cheap and must not
  /// block.
  public var bodyLimit: (@Sendable (HTTPRequestHead) -> Int?)?
  /// Time allowed from the first byte of a request to the end of its header block.
  /// Default 10 s; beyond it 408 and close, so a client dripping bytes cannot hold a connection.
  public var headerReadTimeout: Duration = .seconds(10)
  /// Time allowed to receive a whole request body once the head is in. Default 30 s; beyond
  /// it 408 and close.
  public var bodyReadTimeout: Duration = .seconds(30)
  /// How long a keep-alive connection may sit with no request before it is closed.
  /// Default 60 s.
  public var idleTimeout: Duration = .seconds(60)
  /// How long a response may take to drain to a client that does not read. Default 30 s;
  /// beyond it the connection is closed.
  public var writeTimeout: Duration = .seconds(30)
  /// Most open client connections. Default 10,000; a connection beyond it gets 503 and is closed.
  public var maxConnections: Int = 10_000
  /// Most open connections from one client address, or nil for no such limit. Default 1,000
  /// (``defaultMaxConnectionsPerAddress``); a connection beyond it gets 503 and is closed,
  /// and clients at other addresses are still served.
  ///
  /// IPv4 addresses count one by one (an IPv4-mapped IPv6 address as its IPv4 address); IPv6
  /// addresses count per /64 network, the block one subscriber usually gets, so one client
  /// cannot step around the limit by changing the low half of its address.
  public var maxConnectionsPerAddress: Int? = HTTPServerConfiguration
    .defaultMaxConnectionsPerAddress
  /// Client addresses the per-address limit does not apply to, as numeric text (`10.0.0.5`,
  /// `::1`): a reverse proxy's, whose connections carry every client. Default none. An IPv6
  /// entry exempts its whole /64, the unit the limit counts.
  public var connectionLimitExemptAddresses: Set<String> = []
  /// How many dedicated threads run request handlers. Default
  /// ``defaultHandlerThreads`` (the number of active cores, at least 2).
  ///
  /// Handlers run on the server's own executor over these threads, never on Swift's global
  /// cooperative pool, so CPU-heavy work elsewhere in the process cannot starve the server.
  /// A handler that blocks its thread (synchronous I/O, a lock) holds one of them until it
  /// returns; raise the count for handlers that block.
  public var handlerThreads: Int = HTTPServerConfiguration.defaultHandlerThreads
  /// Called once per answered request (including refused ones) with its outcome, or nil.
  ///
  /// It runs on the task that ran the handler, or on the I/O thread for requests the server
  /// refused itself, so it must be cheap and must not block.
  public var accessLog: (@Sendable (AccessLogEntry) -> Void)?

  /// Called once for each answer the server makes by itself, never for a handler's: the
  /// refusals (400, 408, 413, 414, 417, 431, 501, 505, and 503 to a connection beyond
  /// ``maxConnections`` or ``maxConnectionsPerAddress``), or nil (the default).
  ///
  /// The entry's method and target are `-` when the server had not read the request line
  /// whole (a line too long, a malformed request, a slow client), its latency zero. Runs on
  /// the I/O thread: keep it cheap, never block. ``accessLog`` gets these entries too; this
  /// one lets a handler that logs and counts its own answers (`roadmapctl serve`'s service)
  /// also log and count the ones it never sees.
  public var refusalLog: (@Sendable (AccessLogEntry) -> Void)?

  /// Shapes the answers the server gives by itself to requests it refuses before any handler
  /// sees them (400, 413, 414, 417, 431, 501, 505, and 408 for a request not received in
  /// time): given the status, the reason and, for a body over its limit, the request's head,
  /// it returns the response to send, or nil for the server's own `{"error":"REASON"}`. The
  /// status stays the server's, and the connection still closes after the answer. Runs on the
  /// I/O thread: keep it cheap. Nil (the default) for `{"error":"REASON"}` always.
  public var refusal: (@Sendable (HTTPRefusal) -> HTTPResponse?)?

  /// Whether the answers of one I/O round are sent together, in one io_uring submission at
  /// the end of the round, where the kernel allows it (Linux; refused under some seccomp
  /// filters, and then answers go out one `send` each as they are made). Default true.
  public var batchesSends = true

  /// How long the I/O thread goes on polling its connections, instead of sleeping in
  /// `epoll_wait`, while deferred ``HTTPImmediateHandler`` answers it waits for are being
  /// made elsewhere (a vote waiting for its group's fsync, say): counted from the loop's last
  /// event or answer. Zero (the default) turns it off. Handlers' tasks are not waited for
  /// this way: they may take any time.
  ///
  /// Polling trades CPU for latency. A loop asleep in `epoll_wait` is woken through its pipe
  /// when an answer comes back from another thread, and on a virtual machine that wake-up
  /// crosses to another CPU by an interrupt that can cost tens of microseconds; a polling
  /// loop sees the answer at its next look and sends it at once. The loop polls only while
  /// at least one deferred answer is outstanding and never longer than this after its last progress,
  /// and it yields its CPU between looks (`sched_yield`), so an idle server never polls and
  /// a client or handler sharing the CPU runs first.
  public var busyPoll: Duration = .zero

  /// Creates a configuration; every parameter defaults to the documented default.
  public init(
    host: String = "127.0.0.1", port: Int = 8080, backlog: Int = 1024,
    maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 32768, maxHeaderCount: Int = 100,
    maxBodyBytes: Int = 1 << 20, bodyLimitCeiling: Int = 32 << 20,
    bodyLimit: (@Sendable (HTTPRequestHead) -> Int?)? = nil,
    headerReadTimeout: Duration = .seconds(10),
    bodyReadTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
    writeTimeout: Duration = .seconds(30), maxConnections: Int = 10_000,
    maxConnectionsPerAddress: Int? = HTTPServerConfiguration.defaultMaxConnectionsPerAddress,
    connectionLimitExemptAddresses: Set<String> = [],
    handlerThreads: Int = HTTPServerConfiguration.defaultHandlerThreads,
    accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil
  ) {
    self.host = host
    self.port = port
    self.backlog = backlog
    self.maxRequestLineBytes = maxRequestLineBytes
    self.maxHeaderBytes = maxHeaderBytes
    self.maxHeaderCount = maxHeaderCount
    self.maxBodyBytes = maxBodyBytes
    self.bodyLimitCeiling = bodyLimitCeiling
    self.bodyLimit = bodyLimit
    self.headerReadTimeout = headerReadTimeout
    self.bodyReadTimeout = bodyReadTimeout
    self.idleTimeout = idleTimeout
    self.writeTimeout = writeTimeout
    self.maxConnections = maxConnections
    self.maxConnectionsPerAddress = maxConnectionsPerAddress
    self.connectionLimitExemptAddresses = connectionLimitExemptAddresses
    self.handlerThreads = handlerThreads
    self.accessLog = accessLog
  }

  /// The default ``maxConnectionsPerAddress``: 1,000, a tenth of the default
  /// ``maxConnections``.
  ///
  /// One address holding a tenth of the table leaves the other nine tenths to everyone else,
  /// so it takes ten addresses, not one, to fill it. An app's users behind one NAT each hold
  /// the one to six connections a system HTTP client opens to a host, for as long as they
  /// are active plus ``idleTimeout``, so 1,000 lets a few hundred of them use the app at the
  /// same moment from one address. A server configured with fewer ``maxConnections``
  /// should lower this with it (a tenth keeps the same reasoning).
  public static let defaultMaxConnectionsPerAddress = 1_000

  /// The default ``handlerThreads``: the number of active cores, at least 2.
  ///
  /// At least 2 so one handler that blocks briefly does not stall every other request on a
  /// single-core machine.
  public static var defaultHandlerThreads: Int {
    max(2, ProcessInfo.processInfo.activeProcessorCount)
  }

  var parserLimits: HTTPParserLimits {
    HTTPParserLimits(
      maxRequestLineBytes: maxRequestLineBytes, maxHeaderBytes: maxHeaderBytes,
      maxHeaderCount: maxHeaderCount, maxBodyBytes: maxBodyBytes,
      bodyLimitCeiling: bodyLimitCeiling, bodyLimit: bodyLimit)
  }
}
