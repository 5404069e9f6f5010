// A raw TCP server on 127.0.0.1 port 0 for answers our HTTPServer never gives: a 200 whose
// body never ends (no Content-Length, no chunking, bytes until the client hangs up), for the
// answer-size limits of the clients; or an answer cut short, for a connection lost mid-answer.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Serves connections on its own thread: reads each request head, then gives its `Answer`.
final class RawServer: @unchecked Sendable {
  /// What every connection is answered with.
  enum Answer {
    /// After a 200 head, 32 KiB blocks of spaces every 2 ms until a write fails (the client
    /// closed the connection); one connection only.
    case endless
    /// These bytes, then the connection is closed; every connection until ``stop()``.
    case cut([UInt8])
  }

  let port: Int
  private let listener: Int32
  private let lock = NSLock()
  private var sent = 0
  private var finished = false

  private let answer: Answer

  init(_ answer: Answer = .endless) throws {
    let (fd, port) = try boundLoopbackSocket()
    guard listen(fd, 4) == 0 else {
      close(fd)
      throw RawServerError()
    }
    listener = fd
    self.port = port
    self.answer = answer
    Thread.detachNewThread { [self] in serve() }
  }

  /// Stops taking connections (a `.cut` server's; an `.endless` one takes only one).
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
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

  private func serve() {
    defer { close(listener) }
    repeat {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return finish() }
      defer { close(connection) }
      guard readHead(connection) else { continue }
      switch answer {
      case .endless:
        return endless(connection)
      case .cut(let bytes):
        _ = writeAll(connection, bytes)
      }
    } while true
  }

  private func readHead(_ connection: Int32) -> Bool {
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { return false }
      head += buffer[..<count]
    }
    return true
  }

  private func endless(_ connection: Int32) {
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

struct RawServerError: Error {}
