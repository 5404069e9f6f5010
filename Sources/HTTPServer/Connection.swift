/// The state of one client connection, owned by the event loop thread.
///
/// At most one request per connection is with a handler at a time; pipelined requests wait
/// in `pending` (bounded) and are parsed after the previous response is written, so
/// responses go out in request order.
final class Connection {
  /// Which deadline is running.
  enum Deadline {
    case none
    /// Waiting for the rest of a request head.
    case header
    /// Waiting for the rest of a request body.
    case body
    /// Keep-alive connection waiting for a next request.
    case idle
    /// A response is waiting for the client to read.
    case write
    /// Closing: draining what the client still sends after our last response.
    case linger
  }

  let fd: Int32
  let id: UInt64
  let peer: String
  var parser: HTTPRequestParser

  /// Bytes read but not parsed yet (pipelined requests, or bytes read while busy).
  var pending: [UInt8] = []
  /// The response bytes not yet written, from `outputOffset`.
  var output: [UInt8] = []
  var outputOffset = 0

  /// A handler is running for this connection.
  var inFlight = false
  /// The request with the handler is `HEAD`.
  var inFlightIsHead = false
  /// The request with the handler allows keep-alive.
  var inFlightKeepAlive = false
  var inFlightHTTP10 = false
  /// Close once `output` is written.
  var closeAfterWrite = false
  /// The client closed its sending side.
  var readClosed = false
  /// Bytes discarded while lingering.
  var lingerBytes = 0

  var watchingRead = true
  var watchingWrite = false
  var deadline = Deadline.none
  var deadlineAt: UInt64 = 0

  init(fd: Int32, id: UInt64, peer: String, limits: HTTPParserLimits) {
    self.fd = fd
    self.id = id
    self.peer = peer
    self.parser = HTTPRequestParser(limits: limits)
  }

  /// True when there is nothing left to write.
  var outputDrained: Bool { outputOffset >= output.count }

  /// Neither a handler nor a write nor a partial request is pending.
  var isIdle: Bool {
    !inFlight && outputDrained && pending.isEmpty && parser.isAtRequestBoundary
  }
}
