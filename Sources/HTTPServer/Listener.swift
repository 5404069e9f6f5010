#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens the listening socket: resolve, socket, options, bind, listen.
enum Listener {
  /// Returns the non-blocking listening descriptor and the port it is bound to.
  static func open(host: String, port: Int, backlog: Int) throws(HTTPServerError) -> (Int32, Int) {
    var hints = addrinfo()
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var result: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &result)
    guard status == 0, let first = result else {
      let text = status == 0 ? "no address" : String(cString: gai_strerror(status))
      throw HTTPServerError(
        kind: .addressResolution, message: "cannot resolve \(host): \(text)")
    }
    defer { freeaddrinfo(result) }

    // A name such as "localhost" may resolve to both families: try IPv4 first, the one
    // clients typing 127.0.0.1 or "localhost" reach in every setup.
    var candidates: [addrinfo] = []
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let info = next {
      candidates.append(info.pointee)
      next = info.pointee.ai_next
    }
    candidates.sort { $0.ai_family == AF_INET && $1.ai_family != AF_INET }
    var lastError = SystemCallError(call: "getaddrinfo", errno: EADDRNOTAVAIL)
    for info in candidates {
      do {
        let fd = try bindAndListen(info, backlog: backlog)
        return (fd, try boundPort(fd))
      } catch {
        lastError = error
      }
    }
    throw HTTPServerError(
      kind: .bind, message: "cannot listen on \(host):\(port)", errno: lastError.errno,
      syscall: lastError.call)
  }

  private static func bindAndListen(_ info: addrinfo, backlog: Int) throws(SystemCallError)
    -> Int32
  {
    #if os(Linux)
      let type = info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let type = info.ai_socktype
    #endif
    let fd = socket(info.ai_family, type, info.ai_protocol)
    if fd < 0 { throw SystemCallError(call: "socket", errno: errno) }
    do {
      var one: Int32 = 1
      let size = socklen_t(MemoryLayout<Int32>.size)
      _ = try SystemCall.retrying("setsockopt") {
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, size)
      }
      if info.ai_family == AF_INET6 {
        // "::" also accepts IPv4 (mapped) clients.
        var zero: Int32 = 0
        _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, size)
      }
      _ = try SystemCall.retrying("bind") { bind(fd, info.ai_addr, info.ai_addrlen) }
      _ = try SystemCall.retrying("listen") { listen(fd, Int32(clamping: backlog)) }
      try SystemCall.makeNonBlocking(fd)
      return fd
    } catch {
      SystemCall.close(fd)
      throw error
    }
  }

  private static func boundPort(_ fd: Int32) throws(SystemCallError) -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let rc = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    if rc < 0 {
      let code = errno
      SystemCall.close(fd)
      throw SystemCallError(call: "getsockname", errno: code)
    }
    return SystemCall.port(storage)
  }
}
