// Support for the `roadmapctl serve` end-to-end tests: a started server and a raw HTTP/1.1
// client over 127.0.0.1 sockets (blocking, on plain threads, keep-alive), so tests control
// exactly how many connections they use and see every status, header and byte.
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One HTTP answer as the client read it.
struct WireAnswer: Sendable {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: String

  /// The first value of a header, case-insensitively.
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The body parsed as a JSON object.
  var object: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
  }
}

/// A failure of the raw client, with the call that failed.
struct WireError: Error, CustomStringConvertible {
  var description: String
}

/// One keep-alive HTTP/1.1 connection to 127.0.0.1 (blocking calls: use it off the
/// cooperative pool, e.g. through ``WireClient/onThread(_:)``).
final class WireConnection: @unchecked Sendable {
  private let fd: Int32
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    #if canImport(Glibc)
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw WireError(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw WireError(description: "connect to port \(port): errno \(errno)")
    }
    var on: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(fd) }

  /// Sends one request and reads its answer.
  func request(
    _ target: String, method: String = "GET", headers: [String: String] = [:]
  ) throws -> WireAnswer {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "\r\n"
    try sendAll(Array(text.utf8))
    return try readAnswer(head: method == "HEAD")
  }

  /// Sends one request with `fields` in order and `body` (with its `Content-Length` when it
  /// is not empty) and reads its answer.
  func exchange(
    _ method: String, _ target: String, fields: [(name: String, value: String)] = [],
    body: [UInt8] = []
  ) throws -> WireAnswer {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for field in fields { text += "\(field.name): \(field.value)\r\n" }
    if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
    text += "\r\n"
    try sendAll(Array(text.utf8) + body)
    return try readAnswer(head: method == "HEAD")
  }

  /// Sends `bytes` as they are (a request of any shape, malformed included) and reads one
  /// answer.
  func raw(_ bytes: [UInt8]) throws -> WireAnswer {
    try sendAll(bytes)
    return try readAnswer(head: false)
  }

  /// Writes `bytes` and reads nothing (half a request, say).
  func sendPart(_ bytes: [UInt8]) throws {
    try sendAll(bytes)
  }

  /// Writes all of `bytes`.
  private func sendAll(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw WireError(description: "send: errno \(errno)") }
      sent += n
    }
  }

  /// Sends every GET of `targets` at once (pipelined, in one write) and reads their answers.
  func pipeline(_ targets: [String]) throws -> [WireAnswer] {
    let text = targets.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined()
    try sendAll(Array(text.utf8))
    return try targets.map { _ in try readAnswer(head: false) }
  }

  private func readAnswer(head: Bool) throws -> WireAnswer {
    let separator: [UInt8] = [13, 10, 13, 10]
    var end: Int?
    while true {
      if buffer.count >= 4 {
        end = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
        if end != nil { break }
      }
      try fill()
    }
    let headText = String(decoding: buffer[..<end!], as: UTF8.self)
    buffer.removeFirst(end! + 4)
    var lines = headText.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw WireError(description: "bad status line in \(headText)")
    }
    let headers = lines.compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        name: String(line[..<colon]),
        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    let length =
      head || status == 204 || status == 304
      ? 0
      : Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
    while buffer.count < length { try fill() }
    let body = String(decoding: buffer[..<length], as: UTF8.self)
    buffer.removeFirst(length)
    return WireAnswer(status: status, headers: headers, body: body)
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw WireError(description: n == 0 ? "connection closed" : "recv: errno \(errno)")
      }
      buffer.append(contentsOf: chunk[..<n])
      return
    }
  }
}

/// Runs blocking client work on plain threads.
enum WireClient {
  /// Runs `body` on a new thread and returns its result.
  static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        do { continuation.resume(returning: try body()) } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }

  /// Runs `body(i)` for `count` connections at once, each on its own thread.
  static func concurrently<T: Sendable>(
    _ count: Int, _ body: @escaping @Sendable (Int) throws -> T
  ) async throws -> [T] {
    try await withThrowingTaskGroup(of: T.self) { group in
      for i in 0..<count { group.addTask { try await onThread { try body(i) } } }
      var results: [T] = []
      for try await result in group { results.append(result) }
      return results
    }
  }
}

/// A running `roadmapctl serve` on a free port with its own data directory.
struct ServeProcess {
  let process: RunningRoadmapctl
  let port: Int
  let dataDirectory: URL

  /// Starts `roadmapctl serve --port 0 --data-dir DIR` plus `arguments` and waits for its
  /// `Serving on` line.
  static func start(
    dataDirectory: URL, _ arguments: [String] = [], environment: [String: String] = [:],
    binary: URL? = nil
  ) async throws -> ServeProcess {
    let process = try Roadmapctl.start(
      ["serve", "--port", "0", "--data-dir", dataDirectory.path] + arguments,
      environment: environment, binary: binary)
    let line = try await process.waitForLine(
      containing: "Serving on http://", timeout: .seconds(60))
    let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
    return ServeProcess(process: process, port: port, dataDirectory: dataDirectory)
  }

  /// One request on a new connection.
  func get(
    _ target: String, method: String = "GET", headers: [String: String] = [:]
  ) async throws -> WireAnswer {
    let port = port
    return try await WireClient.onThread {
      try WireConnection(port: port).request(target, method: method, headers: headers)
    }
  }

  /// Sends SIGTERM and returns the exit status.
  func stop() async throws -> Int32 {
    process.signal(SIGTERM)
    return try await process.waitForExit(timeout: .seconds(30))
  }
}
