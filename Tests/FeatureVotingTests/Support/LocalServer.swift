// A local HTTP server of our own (the project's HTTPServer module, 127.0.0.1 port 0) for the
// transport-level failures a real counting service rarely shows on demand: slow answers, 429,
// 500, HTML pages, bodies of another dialect. And a closed port for "no network".
import Foundation
import HTTPServer
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running HTTPServer on 127.0.0.1 with the routes a test gives it, counting requests.
final class LocalServer: Sendable {
  let server: HTTPServer
  let port: Int
  private let log = RequestLog()

  /// Starts a server whose router `configure` fills in.
  init(_ configure: (inout Router) -> Void) throws {
    var router = Router()
    configure(&router)
    let inner = router.handler
    let log = self.log
    let configuration = HTTPServerConfiguration(
      host: "127.0.0.1", port: 0, headerReadTimeout: .seconds(10), idleTimeout: .seconds(10),
      writeTimeout: .seconds(10))
    server = HTTPServer(configuration: configuration) { request in
      log.append(request)
      return await inner(request)
    }
    port = try server.start()
  }

  /// The base URL, `http://127.0.0.1:PORT`.
  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Every request target received so far, in order.
  var targets: [String] { log.requests.map(\.target) }

  /// Every request received so far.
  var requests: [HTTPRequest] { log.requests }

  /// Stops the server.
  func stop() async {
    await server.shutdown(gracePeriod: .seconds(1))
  }
}

/// Requests seen by a ``LocalServer``.
final class RequestLog: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [HTTPRequest] = []

  func append(_ request: HTTPRequest) { lock.withLock { entries.append(request) } }
  var requests: [HTTPRequest] { lock.withLock { entries } }
}

/// A port on 127.0.0.1 where nothing listens: a socket bound to it but never listening, kept
/// open for the test's duration so no one else takes the port. Connecting is refused.
final class ClosedPort: @unchecked Sendable {
  let port: Int
  private let fd: Int32

  init() throws {
    (fd, port) = try boundLoopbackSocket()
  }

  /// `http://127.0.0.1:PORT`.
  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  private let closed = NSLock()
  private var isOpen = true

  /// Frees the port, so a server can start on it ("the network is back").
  func release() {
    closed.withLock {
      if isOpen { close(fd) }
      isOpen = false
    }
  }

  deinit { release() }
}

struct ClosedPortError: Error {}

/// A TCP socket bound to 127.0.0.1 on a port the system picks, not yet listening, and that port.
func boundLoopbackSocket() throws -> (fd: Int32, port: Int) {
  #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
  #endif
  guard fd >= 0 else { throw ClosedPortError() }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = 0
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard bound == 0 else {
    close(fd)
    throw ClosedPortError()
  }
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
  }
  return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// A JSON answer with a status.
func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
  var fields = HTTPHeaders([("Content-Type", "application/json")])
  for (name, value) in headers { fields.add(name: name, value: value) }
  return HTTPResponse(status: status, headers: fields, body: Array(text.utf8))
}
