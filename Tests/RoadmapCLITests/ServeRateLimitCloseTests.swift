import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `serve` through the real binary: a client over its rate limit gets its 429 with
/// `Connection: close`, and that connection is closed after the answer.
@Suite struct ServeRateLimitCloseTests {
  @Test func the429ClosesItsConnection() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"), ["--write-limit", "2"])
    defer { server.process.kill() }
    let port = server.port
    // Burst of one (half of 2 a minute): the second write on the connection is refused.
    let wire = try await WireClient.onThread { try Self.twoHitsThenEOF(port: port) }
    #expect(wire.hasPrefix("HTTP/1.1 200 "), "\(wire)")
    let parts = wire.components(separatedBy: "HTTP/1.1 ")
    #expect(parts.count == 3, "\(wire)")
    #expect(parts.first { $0.hasPrefix("200 ") }?.contains("Connection: close") == false)
    let limited = try #require(parts.last)
    #expect(limited.hasPrefix("429 "), "\(wire)")
    #expect(limited.contains("\r\nConnection: close\r\n"), "\(limited)")
    #expect(limited.contains("\r\nRetry-After: "), "\(limited)")
    // A new connection from the same address is still served (reads have their own bucket).
    #expect(try await server.get("/get/ns1/feature1").status == 200)
    #expect(try await server.stop() == 0)
  }

  /// Sends `/hit` twice on one keep-alive connection (the second after the first answer)
  /// and reads until the server closes it; returns every byte read. Never writes after
  /// the refusal, so a closed socket cannot raise SIGPIPE.
  static func twoHitsThenEOF(port: Int) throws -> String {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw WireError(description: "socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw WireError(description: "connect: errno \(errno)") }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = Array("GET /hit/ns1/feature1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    var received: [UInt8] = []
    func send() throws {
      #if canImport(Glibc)
        let n = request.withUnsafeBytes {
          Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
      #else
        let n = request.withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
      #endif
      guard n == request.count else { throw WireError(description: "send: errno \(errno)") }
    }
    /// Reads until `done(received)` or the end of the stream; false at the end.
    func read(until done: ([UInt8]) -> Bool) throws -> Bool {
      var chunk = [UInt8](repeating: 0, count: 4096)
      while !done(received) {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && errno == EINTR { continue }
        if n == 0 { return false }
        guard n > 0 else { throw WireError(description: "recv: errno \(errno)") }
        received.append(contentsOf: chunk[..<n])
      }
      return true
    }
    func answers(_ bytes: [UInt8]) -> Int {
      String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
    }
    try send()
    // The first answer is complete once its body (`{"value":1}`) has arrived.
    guard try read(until: { String(decoding: $0, as: UTF8.self).hasSuffix("}") }) else {
      throw WireError(description: "closed after the first answer")
    }
    try send()
    // Read to the end: the server must close the connection after the 429.
    let endedOpen = try read(until: { _ in false })
    #expect(!endedOpen)
    #expect(answers(received) == 2)
    return String(decoding: received, as: UTF8.self)
  }
}
