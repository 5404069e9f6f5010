#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if os(Linux)
  import CEpoll
#endif

/// A failed system call: its name and `errno`.
struct SystemCallError: Error {
  var call: String
  var errno: Int32
}

/// Thin wrappers over the POSIX calls the server makes: EINTR retried, errno captured with
/// the call's name, SIGPIPE avoided.
enum SystemCall {
  /// `strerror` as a Swift string.
  static func describe(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
  }

  /// Runs `body` until it does not fail with EINTR; throws the call's errno otherwise.
  @inline(__always)
  static func retrying<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemCallError)
    -> T
  {
    while true {
      let result = body()
      if result >= 0 { return result }
      let code = errno
      if code == EINTR { continue }
      throw SystemCallError(call: call, errno: code)
    }
  }

  /// Ignores SIGPIPE for the whole process, once; writes also use MSG_NOSIGNAL where it exists.
  static func ignoreSIGPIPE() {
    _ = ignoreOnce
  }

  private static let ignoreOnce: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
  }()

  /// Sets O_NONBLOCK and FD_CLOEXEC on `fd`.
  static func makeNonBlocking(_ fd: Int32) throws(SystemCallError) {
    let flags = try retrying("fcntl") { fcntl(fd, F_GETFL) }
    _ = try retrying("fcntl") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    _ = try retrying("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
  }

  /// Accepts one connection, non-blocking and close-on-exec from the start (so a child
  /// process spawned meanwhile never inherits it). Returns -1 with `errno` set on failure.
  static func accept(
    _ listenFD: Int32, _ address: UnsafeMutablePointer<sockaddr>,
    _ length: UnsafeMutablePointer<socklen_t>
  ) -> Int32 {
    #if os(Linux)
      return cepoll_accept4(
        listenFD, address, length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
    #else
      let fd = Darwin.accept(listenFD, address, length)
      if fd >= 0 {
        do {
          try makeNonBlocking(fd)
        } catch {
          close(fd)
          errno = error.errno
          return -1
        }
      }
      return fd
    #endif
  }

  /// `close(2)`, never retried (on Linux the descriptor is gone even after EINTR).
  static func close(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  /// Sends as much of `bytes` as the socket takes now; returns the count, 0 on EAGAIN.
  static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    while true {
      let n = systemSend(fd, bytes.baseAddress, bytes.count, flags)
      if n >= 0 { return n }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return 0 }
      throw SystemCallError(call: "send", errno: code)
    }
  }

  /// Reads what is available; returns the count (0 at end of stream), nil on EAGAIN.
  static func recv(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError)
    -> Int?
  {
    while true {
      let n = systemRecv(fd, buffer.baseAddress, buffer.count, 0)
      if n >= 0 { return n }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return nil }
      throw SystemCallError(call: "recv", errno: code)
    }
  }

  /// The numeric text form of a socket address (`127.0.0.1`, `::1`).
  static func addressText(_ storage: sockaddr_storage) -> String {
    var storage = storage
    let family = Int32(storage.ss_family)
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    let text: String? = withUnsafePointer(to: &storage) { pointer -> String? in
      switch family {
      case AF_INET:
        return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin -> String? in
          var addr = sin.pointee.sin_addr
          guard inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count)) != nil else {
            return nil
          }
          return ""
        }
      case AF_INET6:
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 -> String? in
          var addr = sin6.pointee.sin6_addr
          guard inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count)) != nil else {
            return nil
          }
          return ""
        }
      default:
        return nil
      }
    }
    guard text != nil else { return "" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The port of a socket address.
  static func port(_ storage: sockaddr_storage) -> Int {
    var storage = storage
    let family = Int32(storage.ss_family)
    return withUnsafePointer(to: &storage) { pointer -> Int in
      switch family {
      case AF_INET:
        return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin_port))
        }
      case AF_INET6:
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
      default: return 0
      }
    }
  }
}

#if canImport(Glibc)
  @inline(__always)
  private func systemSend(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int, _ f: Int32) -> Int {
    Glibc.send(fd, p, n, f)
  }
  @inline(__always)
  private func systemRecv(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int, _ f: Int32) -> Int {
    Glibc.recv(fd, p, n, f)
  }
#else
  @inline(__always)
  private func systemSend(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int, _ f: Int32) -> Int {
    Darwin.send(fd, p, n, f)
  }
  @inline(__always)
  private func systemRecv(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int, _ f: Int32) -> Int {
    Darwin.recv(fd, p, n, f)
  }
#endif
