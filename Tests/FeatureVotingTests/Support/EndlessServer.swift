// A raw TCP server on 127.0.0.1 port 0 that answers one request with a 200 whose body never
// ends: no Content-Length, no chunking, bytes until the client hangs up. For the answer-size
// limits of the clients; our HTTPServer always sends a Content-Length.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Serves one connection on its own thread: reads the request head, then writes 32 KiB
/// blocks of spaces every 2 ms after a 200 head until a write fails (the client closed the
/// connection).
final class EndlessServer: @unchecked Sendable {
  let port: Int
  private let listener: Int32
  private let lock = NSLock()
  private var sent = 0
  private var finished = false

  init() throws {
    let (fd, port) = try boundLoopbackSocket()
    guard listen(fd, 4) == 0 else {
      close(fd)
      throw EndlessServerError()
    }
    listener = fd
    self.port = port
    Thread.detachNewThread { [self] in serveOne() }
  }

  /// `http://127.0.0.1:PORT`.
  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// The body bytes written so far.
  var bodyBytesSent: Int { lock.withLock { sent } }

  /// Waits up to `seconds` for the client to hang up; true when it did. Polls, so that no
  /// cooperative thread is blocked.
  func waitUntilTheClientHangsUp(seconds: Double) async -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if lock.withLock({ finished }) { return true }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return lock.withLock { finished }
  }

  private func serveOne() {
    let connection = accept(listener, nil, nil)
    close(listener)
    guard connection >= 0 else { return finish() }
    defer { close(connection) }
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { return finish() }
      head += buffer[..<count]
    }
    let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n".utf8)
    guard writeAll(connection, answer) else { return finish() }
    // About 16 MB/s, as a fast network would bring it. Not as fast as loopback allows:
    // swift-corelibs-foundation runs every URLSession of a process on one serial queue, which
    // a socket that is always readable keeps busy, so the timers and cancels of every other
    // test's sessions would wait (for minutes, seen once).
    let block = [UInt8](repeating: UInt8(ascii: " "), count: 32 * 1024)
    while writeAll(connection, block) {
      lock.withLock { sent += block.count }
      usleep(2000)
    }
    finish()
  }

  private func writeAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
      #else
        let flags: Int32 = 0
      #endif
      let written = bytes[offset...].withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, flags)
      }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  private func finish() {
    lock.withLock { finished = true }
  }
}

struct EndlessServerError: Error {}
