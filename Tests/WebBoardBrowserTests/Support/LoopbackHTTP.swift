// A minimal HTTP/1.1 client for 127.0.0.1, for talking to chromedriver. (URLSession on Linux
// cannot read chromedriver's answers: it writes `Content-Length:918` without the space that
// swift-corelibs-foundation's header parser expects, and fails with "Failed writing header".)
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum LoopbackHTTP {
  /// Sends one request (`Connection: close`) to `127.0.0.1:port` and reads the whole answer.
  /// Blocking socket calls run on a thread of their own, off the cooperative pool.
  static func request(
    port: Int, method: String, path: String, body: Data?, timeoutSeconds: Int = 120
  ) async throws -> (status: Int, body: Data) {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        do {
          continuation.resume(
            returning: try sendBlocking(
              port: port, method: method, path: path, body: body, timeoutSeconds: timeoutSeconds))
        } catch {
          continuation.resume(throwing: error)
        }
      }
      thread.start()
    }
  }

  private static func sendBlocking(
    port: Int, method: String, path: String, body: Data?, timeoutSeconds: Int
  ) throws -> (status: Int, body: Data) {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw ChildProcessError(description: "socket: errno \(errno)") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      throw ChildProcessError(description: "connect to 127.0.0.1:\(port): errno \(errno)")
    }
    let payload = body ?? Data()
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    head +=
      "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(payload.count)\r\n\r\n"
    let bytes = Array(head.utf8) + Array(payload)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { sendBytes(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw ChildProcessError(description: "send: errno \(errno)") }
      sent += n
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw ChildProcessError(description: "recv: errno \(errno)") }
      if n == 0 { break }
      received.append(contentsOf: buffer[0..<n])
      if let answer = complete(received) { return answer }
    }
    guard let answer = complete(received, atEnd: true) else {
      throw ChildProcessError(description: "incomplete answer from chromedriver")
    }
    return answer
  }

  private static func sendBytes(
    _ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int, _ flags: Int32
  ) -> Int {
    #if canImport(Glibc)
      return Glibc.send(fd, pointer, count, flags | Int32(MSG_NOSIGNAL))
    #else
      return Darwin.send(fd, pointer, count, flags)
    #endif
  }

  /// The status and body once `bytes` hold the whole answer (by Content-Length, or at EOF).
  private static func complete(_ bytes: [UInt8], atEnd: Bool = false) -> (Int, Data)? {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard
      let end = (0..<max(0, bytes.count - 3)).first(where: {
        Array(bytes[$0..<($0 + 4)]) == separator
      })
    else { return nil }
    let head = String(decoding: bytes[0..<end], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var length: Int? = nil
    for line in lines.dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "content-length" {
        length = Int(parts[1].trimmingCharacters(in: .whitespaces))
      }
    }
    let body = Array(bytes[(end + 4)...])
    if let length {
      return body.count >= length ? (status, Data(body.prefix(length))) : nil
    }
    return atEnd ? (status, Data(body)) : nil
  }
}
