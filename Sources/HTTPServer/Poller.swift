#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if os(Linux)
  import CEpoll
#endif

/// Readiness notification for many sockets: level-triggered epoll on Linux, `poll` elsewhere.
///
/// Swift's Glibc module does not export `<sys/epoll.h>`; on Linux it comes from the `CEpoll`
/// C target, so `struct epoll_event` has the C compiler's layout (packed on x86-64). Not
/// thread-safe: one loop thread owns it.
final class Poller {
  /// One ready descriptor.
  struct Event {
    var fd: Int32
    var readable: Bool
    var writable: Bool
    var failed: Bool
  }

  #if os(Linux)
    private let epfd: Int32
    private let capacity = 256
    private let buffer: UnsafeMutablePointer<epoll_event>

    init() throws(SystemCallError) {
      let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
      if fd < 0 { throw SystemCallError(call: "epoll_create1", errno: errno) }
      epfd = fd
      buffer = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
    }

    deinit {
      buffer.deallocate()
      SystemCall.close(epfd)
    }

    private func control(_ op: Int32, _ fd: Int32, read: Bool, write: Bool) throws(SystemCallError)
    {
      var event = epoll_event()
      event.events = (read ? cepoll_in : 0) | (write ? cepoll_out : 0)
      event.data.fd = fd
      if epoll_ctl(epfd, op, fd, &event) < 0 {
        throw SystemCallError(call: "epoll_ctl", errno: errno)
      }
    }

    /// Starts watching `fd`.
    func add(_ fd: Int32, read: Bool, write: Bool) throws(SystemCallError) {
      try control(EPOLL_CTL_ADD, fd, read: read, write: write)
    }

    /// Changes what `fd` is watched for.
    func modify(_ fd: Int32, read: Bool, write: Bool) throws(SystemCallError) {
      try control(EPOLL_CTL_MOD, fd, read: read, write: write)
    }

    /// Stops watching `fd` (closing it does too; this is for descriptors kept open).
    func remove(_ fd: Int32) {
      try? control(EPOLL_CTL_DEL, fd, read: false, write: false)
    }

    /// Waits up to `timeout` milliseconds (-1: forever) and appends ready descriptors to `events`.
    func wait(timeout: Int32, into events: inout [Event]) throws(SystemCallError) {
      events.removeAll(keepingCapacity: true)
      let n = epoll_wait(epfd, buffer, Int32(capacity), timeout)
      if n < 0 {
        let code = errno
        if code == EINTR { return }
        throw SystemCallError(call: "epoll_wait", errno: code)
      }
      for k in 0..<Int(n) {
        let mask = buffer[k].events
        events.append(
          Event(
            fd: buffer[k].data.fd,
            readable: mask & (cepoll_in | cepoll_hup) != 0,
            writable: mask & cepoll_out != 0,
            failed: mask & cepoll_err != 0))
      }
    }
  #else
    private var interests: [Int32: Int16] = [:]

    init() throws(SystemCallError) {}

    /// Starts watching `fd`.
    func add(_ fd: Int32, read: Bool, write: Bool) throws(SystemCallError) {
      interests[fd] = Int16((read ? POLLIN : 0) | (write ? POLLOUT : 0))
    }

    /// Changes what `fd` is watched for.
    func modify(_ fd: Int32, read: Bool, write: Bool) throws(SystemCallError) {
      interests[fd] = Int16((read ? POLLIN : 0) | (write ? POLLOUT : 0))
    }

    /// Stops watching `fd`.
    func remove(_ fd: Int32) {
      interests[fd] = nil
    }

    /// Waits up to `timeout` milliseconds (-1: forever) and appends ready descriptors to `events`.
    func wait(timeout: Int32, into events: inout [Event]) throws(SystemCallError) {
      events.removeAll(keepingCapacity: true)
      var fds = interests.map { pollfd(fd: $0.key, events: $0.value, revents: 0) }
      let n = poll(&fds, nfds_t(fds.count), timeout)
      if n < 0 {
        let code = errno
        if code == EINTR { return }
        throw SystemCallError(call: "poll", errno: code)
      }
      for p in fds where p.revents != 0 {
        events.append(
          Event(
            fd: p.fd, readable: p.revents & Int16(POLLIN | POLLHUP) != 0,
            writable: p.revents & Int16(POLLOUT) != 0,
            failed: p.revents & Int16(POLLERR | POLLNVAL) != 0))
      }
    }
  #endif
}
