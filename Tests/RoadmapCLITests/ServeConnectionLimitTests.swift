// `roadmapctl serve --max-connections-per-address` (issue 7, item 2), through the real binary:
// one address at its limit is refused, another address is still served.
import Foundation
import Testing

@testable import RoadmapCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite(.timeLimit(.minutes(3))) struct ServeConnectionLimitTests {
  @Test func oneAddressAtTheLimitGets503AndAnotherIsServed() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url,
      ["--max-connections-per-address", "3", "--read-limit", "0"])
    defer { server.process.kill() }
    let port = server.port
    let (held, over, other) = try await WireClient.onThread { () -> ([Int], Int, Int) in
      let connections = try (0..<3).map { _ in try SourcedConnection(port: port, from: "127.0.0.1")
      }
      let held = try connections.map { try $0.status(of: "/healthz") }
      let over = try SourcedConnection(port: port, from: "127.0.0.1").status(of: nil)
      let other = try SourcedConnection(port: port, from: "127.0.0.2").status(of: "/healthz")
      return (held, over, other)
    }
    #expect(held == [200, 200, 200])
    #expect(over == 503)
    #expect(other == 200)
    #expect(try await server.stop() == 0)
  }

  /// A process allowed fewer descriptors than the connection table needs (`ulimit -n 256`,
  /// hard and soft, so `serve` cannot raise it): one address holding many connections ran
  /// it out of descriptors, and then nobody was answered, not even with a 503, until idle
  /// connections timed out. The limits now shrink to fit, with a warning that says so.
  @Test func tooFewDescriptorsLowerTheLimitsInsteadOfStallingEveryone() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let wrapper = directory.url.appendingPathComponent("low-ulimit.sh")
    try """
    #!/bin/sh
    ulimit -n 256 || exit 70
    exec '\(try Roadmapctl.binaryURL().path)' "$@"

    """.write(to: wrapper, atomically: true, encoding: .utf8)
    chmod(wrapper.path, 0o755)
    let data = directory.url.appendingPathComponent("data")
    let server = try await ServeProcess.start(
      dataDirectory: data, ["--read-limit", "0"], binary: wrapper)
    defer { server.process.kill() }
    let port = server.port
    let (last, other) = try await WireClient.onThread { () -> (Int, Int) in
      // More connections from one address than the process has descriptors.
      let held = try (0..<300).map { _ in try SourcedConnection(port: port, from: "127.0.0.1") }
      let last = try held[held.count - 1].status(of: nil)
      let other = try SourcedConnection(port: port, from: "127.0.0.2").status(of: "/healthz")
      return (last, other)
    }
    #expect(last == 503)
    #expect(other == 200)
    #expect(try await server.stop() == 0)
    let stderr = server.process.stderrText
    #expect(
      stderr.contains("warning: this process may open only 256 files (ulimit -n), too few for "),
      "\(stderr)")
    #expect(stderr.contains("LimitNOFILE="))
  }

  @Test func theLimitWithTrustProxyIsAUsageError() async throws {
    let result = try await Roadmapctl.run(
      ["serve", "--trust-proxy", "--max-connections-per-address", "10", "--port", "0"])
    #expect(result.exitCode == 64)
    #expect(
      result.stderrText.hasPrefix(
        "Error: --max-connections-per-address cannot be used with --trust-proxy"))
    let negative = try await Roadmapctl.run(["serve", "--max-connections-per-address", "-1"])
    #expect(negative.exitCode == 64)
    #expect(negative.stderrText.hasPrefix("Error: The connection limit must be 0 or more."))
  }

  @Test func whichLimitTheOptionsGive() throws {
    // Default, an explicit limit, 0 for none, and none behind a proxy (whose own address
    // carries every connection).
    #expect(try ServeCommand.connectionLimit(nil, trustProxy: false) == 1_000)
    #expect(try ServeCommand.connectionLimit(50, trustProxy: false) == 50)
    #expect(try ServeCommand.connectionLimit(0, trustProxy: false) == nil)
    #expect(try ServeCommand.connectionLimit(nil, trustProxy: true) == nil)
    #expect(try ServeCommand.connectionLimit(0, trustProxy: true) == nil)
    #expect(throws: CommandError.self) { try ServeCommand.connectionLimit(5, trustProxy: true) }
  }
}

/// A blocking connection to 127.0.0.1 from a chosen loopback source address.
private final class SourcedConnection {
  let fd: Int32

  init(port: Int, from source: String) throws {
    #if canImport(Glibc)
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw WireError(description: "socket: errno \(errno)") }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    var remote = sockaddr_in()
    remote.sin_family = sa_family_t(AF_INET)
    remote.sin_port = in_port_t(UInt16(port).bigEndian)
    remote.sin_addr.s_addr = inet_addr("127.0.0.1")
    let size = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
    }
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
    }
    guard bound == 0, connected == 0 else {
      let code = errno
      close(fd)
      throw WireError(description: "bind \(source) / connect: errno \(code)")
    }
  }

  deinit { close(fd) }

  /// Sends `GET target` (nothing when nil) and returns the status of the first answer.
  func status(of target: String?) throws -> Int {
    if let target {
      let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
      guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count
      else { throw WireError(description: "send: errno \(errno)") }
    }
    var head: [UInt8] = []
    var byte: UInt8 = 0
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
      guard recv(fd, &byte, 1, 0) == 1 else {
        throw WireError(description: "no answer: \(String(decoding: head, as: UTF8.self))")
      }
      head.append(byte)
    }
    let statusLine = String(decoding: head, as: UTF8.self).split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw WireError(description: "bad answer \(String(decoding: head, as: UTF8.self))")
    }
    // Read the body too, so the connection is ready for another request.
    let text = String(decoding: head, as: UTF8.self).lowercased()
    if let range = text.range(of: "content-length: ") {
      let digits = text[range.upperBound...].prefix { $0.isNumber }
      var body = [UInt8](repeating: 0, count: Int(digits) ?? 0)
      var read = 0
      while read < body.count {
        let n = body[read...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { break }
        read += n
      }
    }
    return status
  }
}
