import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking TCP client for sending exactly the bytes no polite client sends.
///
/// Every read has a receive timeout, so a server bug fails the test instead of hanging it. The
/// default is generous (30 s): a test's own steps run on Swift's global pool, which other
/// suites running in parallel on a 2-core machine can keep busy for seconds.
final class RawClient {
  let fd: Int32
  private var buffer: [UInt8] = []

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// A response as read off the wire.
  struct Response {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
      headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// Connects to `host`:`port`, from the IPv4 address `source` when given (any 127.0.0.0/8
  /// address works on Linux loopback); throws the connect errno (ECONNREFUSED when nobody
  /// listens).
  init(host: String = "127.0.0.1", port: Int, source: String? = nil, receiveTimeout: Int = 30)
    throws
  {
    // Connect before the object exists: a throwing class initializer may still run `deinit`,
    // which would close the descriptor a second time (possibly someone else's by then).
    fd = try RawClient.connectedSocket(
      host: host, port: port, source: source, receiveTimeout: receiveTimeout)
  }

  private static func connectedSocket(
    host: String, port: Int, source: String?, receiveTimeout: Int
  ) throws -> Int32 {
    let v6 = host.contains(":")
    let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
    var tv = timeval(tv_sec: receiveTimeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    if let source {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      inet_pton(AF_INET, source, &local.sin_addr)
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if bound != 0 {
        let code = errno
        Glibc.close(fd)
        throw Failure(description: "bind \(source): errno \(code)")
      }
    }
    let rc: Int32
    if v6 {
      var addr = sockaddr_in6()
      addr.sin6_family = sa_family_t(AF_INET6)
      addr.sin6_port = UInt16(port).bigEndian
      inet_pton(AF_INET6, host, &addr.sin6_addr)
      rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var addr = sockaddr_in()
      addr.sin_family = sa_family_t(AF_INET)
      addr.sin_port = UInt16(port).bigEndian
      inet_pton(AF_INET, host, &addr.sin_addr)
      rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    if rc != 0 {
      let code = errno
      Glibc.close(fd)
      throw ConnectError(errno: code)
    }
    return fd
  }

  struct ConnectError: Error {
    var errno: Int32
  }

  deinit { Glibc.close(fd) }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Sends `GET target` and reads its answer.
  func request(_ target: String) throws -> Response? {
    try send("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
    return try readResponse()
  }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "send: errno \(errno)")
      }
      offset += n
    }
  }

  /// Reads more bytes into the buffer; false at end of stream.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &chunk, chunk.count, 0)
      if n > 0 {
        buffer.append(contentsOf: chunk[..<n])
        return true
      }
      if n == 0 { return false }
      if errno == EINTR { continue }
      if errno == ECONNRESET { return false }
      throw Failure(description: "recv: errno \(errno) (timeout?)")
    }
  }

  /// Reads one response (Content-Length framed, or to end of stream), or nil at end of stream.
  func readResponse(headRequest: Bool = false) throws -> Response? {
    while true {
      if let end = headEnd() {
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
          throw Failure(description: "bad status line \(statusLine)")
        }
        let headers = lines.filter { !$0.isEmpty }.map { line -> (String, String) in
          let c = line.firstIndex(of: ":")!
          return (
            String(line[..<c]), line[line.index(after: c)...].trimmingCharacters(in: .whitespaces)
          )
        }
        let length =
          headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
        let bodyLength =
          (headRequest || status < 200 || status == 204 || status == 304) ? 0 : length
        while buffer.count < end + 4 + bodyLength {
          guard try fill() else { throw Failure(description: "EOF inside a body") }
        }
        let body = Array(buffer[(end + 4)..<(end + 4 + bodyLength)])
        buffer.removeFirst(end + 4 + bodyLength)
        return Response(status: status, headers: headers, body: body)
      }
      guard try fill() else {
        if buffer.isEmpty { return nil }
        throw Failure(description: "EOF inside a head: \(String(decoding: buffer, as: UTF8.self))")
      }
    }
  }

  /// True when the server closed the connection (reads end of stream with nothing pending).
  func readsEndOfStream() throws -> Bool {
    if !buffer.isEmpty { return false }
    return try !fill()
  }

  private func headEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for i in 0...(buffer.count - 4)
    where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
      return i
    }
    return nil
  }
}
