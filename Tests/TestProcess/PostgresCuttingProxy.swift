import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A PostgreSQL wire proxy on a Unix socket of its own that can cut a connection right after
/// forwarding the server's answer to a `COMMIT`: the client never reads that answer, though
/// the server has committed. That is a connection dropped between the commit and its
/// acknowledgement (a network path that failed, a proxy or pooler restarted) made exact.
///
/// Clients connect with `host=<directory> port=5432` (libpq's socket `.s.PGSQL.5432` in
/// ``directory``); each connection is forwarded to the server's Unix socket `upstream`. Over a
/// Unix socket libpq sends no SSL or GSS request, so every message from the server has the
/// usual type byte and length, which the proxy reads to find `CommandComplete` (`C`) with
/// the tag `COMMIT`.
public final class PostgresCuttingProxy: @unchecked Sendable {
  /// The directory holding the proxy's socket: libpq's `host`.
  public let directory: String
  private let upstream: String
  private let listener: Int32
  private let lock = NSLock()
  private var commitCuts = 0
  private var cutCount = 0
  private var open: [Int32] = []

  /// Listens on `<new temporary directory>/.s.PGSQL.5432` and forwards each connection to
  /// the Unix socket at the path `upstream` (`<server's socket directory>/.s.PGSQL.5432`).
  public init(upstream: String) throws {
    self.upstream = upstream
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("pgproxy-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw Self.failure("socket") }
    var address = try Self.address(directory + "/.s.PGSQL.5432")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(listener, 64) == 0 else {
      close(listener)
      throw Self.failure("bind/listen")
    }
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "pg proxy accept"
    thread.start()
  }

  /// The proxy for the server that the libpq key=value `connectionString` names with
  /// `host=/a/directory` (and `port`, default 5432), with the string to connect through it.
  public static func inFrontOf(_ connectionString: String) throws -> (
    proxy: PostgresCuttingProxy, connectionString: String
  ) {
    var host: String?
    var port = "5432"
    var others: [String] = []
    for pair in connectionString.split(separator: " ") {
      if pair.hasPrefix("host=") {
        host = String(pair.dropFirst(5))
      } else if pair.hasPrefix("port=") {
        port = String(pair.dropFirst(5))
      } else {
        others.append(String(pair))
      }
    }
    guard let host, host.hasPrefix("/") else {
      throw TestProxyError(description: "not a Unix-socket connection string: \(connectionString)")
    }
    let proxy = try PostgresCuttingProxy(upstream: "\(host)/.s.PGSQL.\(port)")
    return (proxy, (["host=\(proxy.directory)", "port=5432"] + others).joined(separator: " "))
  }

  /// Cuts the next `count` connections that carry a `COMMIT`, each right after forwarding
  /// the server's `CommandComplete` for it.
  public func cutAfterNextCommits(_ count: Int = 1) {
    lock.withLock { commitCuts += count }
  }

  /// How many connections were cut after a `COMMIT` so far.
  public var cuts: Int { lock.withLock { cutCount } }

  /// Cuts every connection open now (as a restarted server or a failed network path would).
  public func cutAll() {
    // Under the lock, so that no descriptor is closed (and its number reused) in between.
    lock.withLock {
      for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
  }

  /// Stops listening, cuts every connection and removes the socket's directory.
  public func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    cutAll()
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        close(listener)
        return
      }
      let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      guard var address = try? Self.address(upstream),
        withUnsafePointer(
          to: &address,
          {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
              connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
          }) == 0
      else {
        close(server)
        close(client)
        continue
      }
      lock.withLock { open += [client, server] }
      // The two descriptors are closed once both directions are done: closed any earlier, their
      // numbers could be handed to another test's socket while the other direction still
      // shuts them down.
      let upDone = DispatchSemaphore(value: 0)
      let up = Thread { [self] in
        copyToServer(from: client, to: server)
        upDone.signal()
      }
      up.start()
      let down = Thread { [self] in
        copyToClient(from: server, to: client)
        upDone.wait()
        lock.withLock {
          open.removeAll { $0 == client || $0 == server }
          close(client)
          close(server)
        }
      }
      down.start()
    }
  }

  private func copyToServer(from client: Int32, to server: Int32) {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(client, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0, Self.writeAll(server, buffer[0..<count]) else { break }
    }
    shutdown(server, Int32(SHUT_RDWR))
    shutdown(client, Int32(SHUT_RDWR))
  }

  /// Forwards whole messages, cutting after a `CommandComplete` `COMMIT` when asked to.
  private func copyToClient(from server: Int32, to client: Int32) {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(server, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      pending += buffer[0..<count]
      var start = 0
      while pending.count - start >= 5 {
        let length =
          Int(pending[start + 1]) << 24 | Int(pending[start + 2]) << 16
          | Int(pending[start + 3]) << 8 | Int(pending[start + 4])
        let end = start + 1 + length
        guard pending.count >= end else { break }
        let message = pending[start..<end]
        guard Self.writeAll(client, message) else {
          shutdown(server, Int32(SHUT_RDWR))
          return
        }
        start = end
        if message.first == UInt8(ascii: "C"),
          Array(message.dropFirst(5)) == Array("COMMIT\0".utf8),
          takeCommitCut()
        {
          shutdown(client, Int32(SHUT_RDWR))
          shutdown(server, Int32(SHUT_RDWR))
          return
        }
      }
      pending.removeFirst(start)
    }
    shutdown(client, Int32(SHUT_RDWR))
  }

  private func takeCommitCut() -> Bool {
    lock.withLock {
      guard commitCuts > 0 else { return false }
      commitCuts -= 1
      cutCount += 1
      return true
    }
  }

  private static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
      let written = bytes[offset...].withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, noSignal)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  private static func address(_ path: String) throws -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw TestProxyError(description: "socket path too long: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return address
  }

  private static func failure(_ what: String) -> TestProxyError {
    TestProxyError(description: "\(what): \(String(cString: strerror(errno)))")
  }
}

#if os(Linux)
  private let noSignal = Int32(MSG_NOSIGNAL)
#else
  private let noSignal: Int32 = 0
#endif

/// The proxy could not be set up.
public struct TestProxyError: Error, CustomStringConvertible {
  /// What failed.
  public var description: String
}

/// A Unix socket where a PostgreSQL server would be (`host=<directory> port=5432`) that takes
/// connections into its backlog and never answers: libpq's connect waits on it for ever.
public final class SilentPostgres: @unchecked Sendable {
  /// The directory holding the socket: libpq's `host`.
  public let directory: String
  private let listener: Int32

  /// Listens on `<new temporary directory>/.s.PGSQL.5432`.
  public init() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("pgsilent-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array((directory + "/.s.PGSQL.5432").utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard listener >= 0, bound == 0, listen(listener, 64) == 0 else {
      throw TestProxyError(description: "cannot listen in \(directory)")
    }
  }

  /// Closes the socket and removes its directory.
  public func stop() {
    close(listener)
    try? FileManager.default.removeItem(atPath: directory)
  }
}
