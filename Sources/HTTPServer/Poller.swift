#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Readiness notification for many sockets: level-triggered epoll on Linux, `poll` elsewhere.
///
/// Swift's Glibc module does not export `<sys/epoll.h>`, and the package has no C shim
/// target for it, so on Linux the three epoll entry points are looked up once with `dlsym`
/// in the C library the process already links, and `struct epoll_event` is laid out by hand
/// (packed, 12 bytes, on x86-64; 16 bytes elsewhere). Not thread-safe: one loop thread owns it.
final class Poller {
  /// One ready descriptor.
  struct Event {
    var fd: Int32
    var readable: Bool
    var writable: Bool
    var failed: Bool
  }

  #if os(Linux)
    private typealias CreateFn = @convention(c) (Int32) -> Int32
    private typealias CtlFn =
      @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFn =
      @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) ->
      Int32

    private struct EpollFunctions {
      let create: CreateFn
      let ctl: CtlFn
      let wait: WaitFn
    }

    private static let functions: EpollFunctions? = {
      let handle = dlopen(nil, RTLD_NOW)
      guard let c = dlsym(handle, "epoll_create1"), let m = dlsym(handle, "epoll_ctl"),
        let w = dlsym(handle, "epoll_wait")
      else { return nil }
      return EpollFunctions(
        create: unsafeBitCast(c, to: CreateFn.self), ctl: unsafeBitCast(m, to: CtlFn.self),
        wait: unsafeBitCast(w, to: WaitFn.self))
    }()

    #if arch(x86_64)
      private static let eventSize = 12
      private static let dataOffset = 4
    #else
      private static let eventSize = 16
      private static let dataOffset = 8
    #endif
    private static let epollIn: UInt32 = 0x001
    private static let epollOut: UInt32 = 0x004
    private static let epollErr: UInt32 = 0x008
    private static let epollHup: UInt32 = 0x010
    private static let ctlAdd: Int32 = 1
    private static let ctlDel: Int32 = 2
    private static let ctlMod: Int32 = 3

    private let epfd: Int32
    private let fns: EpollFunctions
    private let capacity = 256
    private let buffer: UnsafeMutableRawPointer

    init() throws(SystemCallError) {
      guard let fns = Poller.functions else {
        throw SystemCallError(call: "dlsym(epoll_create1)", errno: ENOSYS)
      }
      self.fns = fns
      let fd = fns.create(O_CLOEXEC)
      if fd < 0 { throw SystemCallError(call: "epoll_create1", errno: errno) }
      epfd = fd
      buffer = UnsafeMutableRawPointer.allocate(
        byteCount: capacity * Poller.eventSize, alignment: 8)
    }

    deinit {
      buffer.deallocate()
      SystemCall.close(epfd)
    }

    private func control(_ op: Int32, _ fd: Int32, read: Bool, write: Bool) throws(SystemCallError)
    {
      var event: (UInt64, UInt64) = (0, 0)  // 16 bytes, room for either layout
      let mask: UInt32 = (read ? Poller.epollIn : 0) | (write ? Poller.epollOut : 0)
      let result = withUnsafeMutableBytes(of: &event) { raw in
        raw.storeBytes(of: mask, toByteOffset: 0, as: UInt32.self)
        raw.storeBytes(
          of: UInt64(UInt32(bitPattern: fd)), toByteOffset: Poller.dataOffset, as: UInt64.self)
        return fns.ctl(epfd, op, fd, raw.baseAddress)
      }
      if result < 0 {
        throw SystemCallError(call: "epoll_ctl", errno: errno)
      }
    }

    /// Starts watching `fd`.
    func add(_ fd: Int32, read: Bool, write: Bool) throws(SystemCallError) {
      try control(Poller.ctlAdd, fd, read: read, write: write)
    }

    /// Changes what `fd` is watched for.
    func modify(_ fd: Int32, read: Bool, write: Bool) throws(SystemCallError) {
      try control(Poller.ctlMod, fd, read: read, write: write)
    }

    /// Stops watching `fd` (closing it does too; this is for descriptors kept open).
    func remove(_ fd: Int32) {
      try? control(Poller.ctlDel, fd, read: false, write: false)
    }

    /// Waits up to `timeout` milliseconds (-1: forever) and appends ready descriptors to `events`.
    func wait(timeout: Int32, into events: inout [Event]) throws(SystemCallError) {
      events.removeAll(keepingCapacity: true)
      let n = fns.wait(epfd, buffer, Int32(capacity), timeout)
      if n < 0 {
        let code = errno
        if code == EINTR { return }
        throw SystemCallError(call: "epoll_wait", errno: code)
      }
      for k in 0..<Int(n) {
        let base = buffer + k * Poller.eventSize
        let mask = base.loadUnaligned(as: UInt32.self)
        let data = (base + Poller.dataOffset).loadUnaligned(as: UInt64.self)
        events.append(
          Event(
            fd: Int32(bitPattern: UInt32(truncatingIfNeeded: data)),
            readable: mask & (Poller.epollIn | Poller.epollHup) != 0,
            writable: mask & Poller.epollOut != 0,
            failed: mask & Poller.epollErr != 0))
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
